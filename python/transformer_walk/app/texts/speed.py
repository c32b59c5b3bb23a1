"""Words of the Speed page (prefixes ``speed.`` and ``lane.``, the names of the race's lanes)."""

MESSAGES: dict[str, dict[str, str]] = {
    "speed.nav": {"en": "Speed race", "zh": "速度对决"},
    "speed.title": {
        "en": "Speed: pure Python vs NumPy vs Rust",
        "zh": "速度：纯 Python、NumPy 与 Rust 同台比拼",
    },
    "speed.intro": {
        "en": "The operations the pages rely on — softmax, attention, embedding lookup, the "
        "whole MiniLM forward pass, SmolLM2 reading a prompt or generating a token, and a "
        "training step of a small decoder — run "
        "in every backend and are timed on this machine when you press the button. Nothing "
        "here is precomputed: every number is a measurement.",
        "zh": "各个页面依赖的运算——softmax、注意力、词向量查表、MiniLM 的整个前向计算，"
        "SmolLM2 读入提示或生成一个 token，"
        "以及训练一个小型解码器的一步——"
        "会在每个后端中运行，"
        "并在你按下按钮时于这台机器上现场计时。这里没有任何预先算好的结果：每个数字都是实测值。",
    },
    "speed.what.title": {
        "en": "What exactly is measured, and why the numbers move",
        "zh": "到底测的是什么？数字为什么会波动？",
    },
    "speed.what.body": {
        "en": "- **One call** of the backend function on seeded random float32 input, in "
        "wall-clock time (`time.perf_counter`). For pure Python, converting arrays to lists and "
        "back is part of the call, just as it is in real use.\n"
        "- **Warm-up, repeats, median.** The first call is not counted (caches, thread pools "
        "and lazy set-up settle), and the median of the repeats shrugs off the occasional slow "
        "sample. Very fast calls are looped inside one sample so the clock's resolution does "
        "not dominate.\n"
        "- **Rust on 1 thread and on all threads** is set with `rust_core.set_num_threads`, and "
        "the previous setting is restored afterwards. NumPy's matrix products may already use "
        "several cores through its BLAS library.\n"
        "- **Pure Python has a time budget per cell.** It always runs the smallest size; a "
        "larger size is skipped when its estimate — the measured time scaled by the op's work "
        "count — exceeds the budget, and the table says so instead of freezing the page.\n"
        "- **Why numbers vary.** This may well be a shared machine: other processes, CPU "
        "frequency scaling, cache state and how the operating system schedules threads all "
        "move the timings, most of all at tiny sizes where the fixed cost of a call dominates. "
        "When the browser runs on the same machine, its drawing competes for the same cores. "
        "Compare lanes within one run, and run again before trusting a small difference.",
        "zh": "- **计时对象是后端函数的一次调用**：输入是固定随机种子生成的 float32 数据，"
        "计的是墙钟时间（`time.perf_counter`）。对纯 Python 来说，数组与列表之间的来回转换也算在"
        "这次调用里，实际使用时同样如此。\n"
        "- **先预热，再重复，取中位数。** 第一次调用不计入（让缓存、线程池和延迟初始化先就绪），"
        "多次重复取中位数，可以不受偶尔一次慢样本的干扰。非常快的调用会在一个样本里循环多次，"
        "以免时钟精度左右结果。\n"
        "- **Rust 单线程与全部线程**通过 `rust_core.set_num_threads` 设置，测完后恢复原来的设置。"
        "NumPy 的矩阵乘法可能已经通过 BLAS 库用上了多个核心。\n"
        "- **纯 Python 每格有时间预算。** 它总会运行最小的规模；对更大的规模，如果估计耗时"
        "（实测时间按运算量比例放大）超出预算就跳过，并在表格中注明，而不是让页面卡住。\n"
        "- **数字为什么会波动。** 这很可能是一台共享的机器：其他进程、CPU 频率调节、缓存状态、"
        "操作系统如何调度线程，都会影响计时；在很小的规模上，每次调用的固定开销占了大头，"
        "波动尤其明显。如果浏览器也运行在这台机器上，它的页面绘制同样会争抢这些核心。"
        "请在同一次运行中比较各个实现，差距很小时多跑几次再下结论。",
    },
    "speed.op": {"en": "Operation", "zh": "运算"},
    "speed.op.softmax": {"en": "softmax", "zh": "softmax"},
    "speed.op.attention": {"en": "attention", "zh": "注意力"},
    "speed.op.embedding": {"en": "embedding lookup", "zh": "词向量查表"},
    "speed.op.minilm": {"en": "MiniLM forward", "zh": "MiniLM 前向计算"},
    "speed.op.minilm.shape": {
        "en": "The whole all-MiniLM-L6-v2 encoder (6 layers, 12 heads, d_model 384) over "
        "[batch, n] token ids: mostly matrix products, plus attention growing as n². Pure Python "
        "does not race: at about ten million multiply-adds a token, it would need seconds for "
        "every sentence.",
        "zh": "完整的 all-MiniLM-L6-v2 编码器（6 层、12 个头、d_model 384）处理 [batch, n] 个 "
        "token id：主要是矩阵乘法，另有随 n² 增长的注意力。纯 Python 不参赛："
        "每个 token 约一千万次乘加，它算任何一句话都要好几秒。",
    },
    "speed.op.smollm2_prefill": {"en": "SmolLM2 reads a prompt", "zh": "SmolLM2 读入提示"},
    "speed.op.smollm2_prefill.shape": {
        "en": "The prefill of the 135M-parameter decoder (30 layers, 9 query and 3 key/value "
        "heads, d_model 576): a prompt of n random token ids in one pass into a new key/value "
        "cache, the last position scored. Every position goes through each matrix together, "
        "so the work is a few large matrix products, straight over the file's 4- and 8-bit blocks. "
        "NumPy and Rust only: pure Python needs about half a minute a token.",
        "zh": "这个 1.35 亿参数解码器（30 层，9 个查询头、3 个键/值头，d_model 576）的预填充："
        "把 n 个随机 token id 组成的提示一次性读进新的键值缓存，只给最后一个位置打分。"
        "所有位置一起经过每个矩阵，所以工作量是几次大矩阵乘法，"
        "直接在文件的 4 位和 8 位量化块上计算。"
        "只比较 NumPy 和 Rust：纯 Python 每个 token 约需半分钟。",
    },
    "speed.op.smollm2_decode": {
        "en": "SmolLM2 generates a token",
        "zh": "SmolLM2 生成一个 token",
    },
    "speed.op.smollm2_decode.shape": {
        "en": "One step of generation: one new token through all 30 layers after `past` tokens "
        "already in the key/value cache, then the whole output head (49,152 scores). Each "
        "weight matrix is read in full for a single row, so a step is bound by memory, not "
        "arithmetic, and the next step cannot start before this one has chosen its token. "
        "NumPy has no product over 4- and 8-bit blocks, so its lane expands every matrix to "
        "float32 on each call: for a single token that expansion is most of its time.",
        "zh": "生成的一步：在键值缓存里已有 `past` 个 token 之后，让一个新 token 经过全部 30 层，"
        "最后经过整个输出头，得到 49,152 个分数。每个权重矩阵都要完整读一遍，却只算一行，"
        "所以一步的快慢取决于内存而不是算力；而且这一步选出 token 之前，下一步无法开始。"
        "NumPy 没有直接在 4 位和 8 位块上做乘法的运算，"
        "所以它每次调用都要先把每个矩阵展开成 float32："
        "只算一个 token 时，大部分时间都花在这次展开上。",
    },
    "speed.op.train_step": {"en": "a training step", "zh": "训练一步"},
    "speed.op.train_step.shape": {
        "en": "One step of training a small decoder (d_model 64, 4 heads, d_ff 256, 2 layers) on "
        "a fixed batch of `batch` sequences of n random symbols out of 64, each position "
        "learning to predict the next one: the forward pass, the loss, the backward pass (its "
        "gradients cost about two forwards) and the AdamW update of every weight. Every lane "
        "starts from the same weights and batch, and its loss is checked against NumPy's. Pure "
        "Python races only the sizes its time budget allows; the others show its estimate.",
        "zh": "训练一个小型解码器（d_model 64、4 个头、d_ff 256、2 层）的一步：固定的一批 "
        "`batch` 条序列，每条是从 64 个符号里随机取的 n 个，每个位置学着预测下一个符号。"
        "一步包括前向计算、损失、反向传播（求梯度的开销约为两次前向计算）"
        "以及对每个权重的 AdamW 更新。"
        "每条赛道都从同样的权重和同一批数据出发，"
        "它算出的损失要与 NumPy 的结果核对。纯 Python 只跑时间预算允许的规模，"
        "其余的格子显示它的估计耗时。",
    },
    "speed.op.softmax.shape": {
        "en": "softmax over the last axis of x [rows, cols].",
        "zh": "对 x [rows, cols] 的最后一维做 softmax。",
    },
    "speed.op.attention.shape": {
        "en": "softmax(q kᵀ / √d) v with q, k, v of shape [batch, heads, n, d]: the work grows "
        "as n².",
        "zh": "softmax(q kᵀ / √d) v，其中 q、k、v 的形状是 [batch, heads, n, d]："
        "计算量随 n² 增长。",
    },
    "speed.op.embedding.shape": {
        "en": "Look up `ids` random token ids in a [vocab, d] table.",
        "zh": "在形状为 [vocab, d] 的词向量表中，查出 `ids` 个随机 token id 对应的行。",
    },
    "speed.sizes": {"en": "{axis} — sizes to compare", "zh": "{axis}（要比较的规模）"},
    "speed.axis.rows": {"en": "rows", "zh": "行数 rows"},
    "speed.axis.n": {"en": "sequence length n", "zh": "序列长度 n"},
    "speed.axis.ids": {"en": "number of ids", "zh": "id 个数"},
    "speed.axis.batch": {"en": "batch (sequences a step)", "zh": "批大小 batch（每步的序列数）"},
    "speed.axis.past": {
        "en": "tokens already cached (past)",
        "zh": "缓存中已有的 token 数（past）",
    },
    "speed.axis_help": {
        "en": "Each size is one row of the table and one point on every line of the chart. "
        "Sizes are capped so that a run stays short.",
        "zh": "每个规模对应表格中的一行、图中每条线上的一个点。"
        "规模设有上限，保证一次运行不会太久。",
    },
    "speed.param.cols": {"en": "cols", "zh": "列数 cols"},
    "speed.param.batch": {"en": "batch", "zh": "批大小 batch"},
    "speed.param.heads": {"en": "heads", "zh": "头数 heads"},
    "speed.param.d": {"en": "d (per head)", "zh": "d（每个头）"},
    "speed.param.n": {"en": "tokens per sequence n", "zh": "每条序列的 token 数 n"},
    "speed.param.vocab": {"en": "vocabulary size V", "zh": "词表大小 V"},
    "speed.repeats": {"en": "Timed repeats per cell", "zh": "每格计时的重复次数"},
    "speed.budget": {
        "en": "Pure-Python budget per cell (s)",
        "zh": "纯 Python 每格的时间预算（秒）",
    },
    "speed.budget_help": {
        "en": "Pure Python runs a size only if its estimated time fits this budget; larger sizes "
        "show “skipped (estimated …)”.",
        "zh": "只有估计耗时在预算之内，纯 Python 才会运行该规模；"
        "更大的规模会显示“已跳过（估计 …）”。",
    },
    "speed.not_raced": {
        "en": "Pure Python would need about {seconds} s a token here (the estimate of "
        "`core.budget`, from a rate of plain-Python arithmetic measured on the project's "
        "machine), so it is not raced: the NumPy and Rust lanes compute the same numbers.",
        "zh": "在这里纯 Python 每个 token 大约要 {seconds} 秒（`core.budget` 的估计，依据的是"
        "在本项目的机器上实测的纯 Python 算术速度），所以不参加比赛："
        "NumPy 和 Rust 两条赛道算的是同样的数字。",
    },
    "speed.budget_unused": {
        "en": "Pure Python does not race this operation (see its cells for why), so there is no "
        "budget to set here.",
        "zh": "纯 Python 不参加这个运算的比赛（原因见它的格子），所以这里无需设置预算。",
    },
    "speed.run": {"en": "Run the race", "zh": "开始比赛"},
    "speed.pick_sizes": {"en": "Pick at least one size to run.", "zh": "请至少选择一个规模。"},
    "speed.no_results": {
        "en": "No measurements for this operation yet — press **Run the race**.",
        "zh": "这个运算还没有测量结果——请点击**开始比赛**。",
    },
    "speed.progress.start": {"en": "Preparing inputs…", "zh": "正在准备输入…"},
    "speed.progress": {
        "en": "{done}/{total} · {size} · {lane}",
        "zh": "{done}/{total} · {size} · {lane}",
    },
    "speed.progress.done": {"en": "Done.", "zh": "完成。"},
    "speed.meta": {
        "en": "Measured {when} (UTC) · {cores} {cores:core|cores} available · {dtype} · median of "
        "{repeats} {repeats:repeat|repeats} · NumPy {numpy} · rust_core {rust}",
        "zh": "测量于 {when}（UTC）· 可用 {cores} 个核心 · {dtype} · {repeats} 次重复取中位数 · "
        "NumPy {numpy} · rust_core {rust}",
    },
    "speed.rust_not_built": {"en": "not built", "zh": "未构建"},
    "speed.medians.title": {"en": "Median time per call", "zh": "每次调用的耗时中位数"},
    "speed.col.size": {"en": "size", "zh": "规模"},
    "speed.cell.skipped": {
        "en": "skipped (estimated {estimate})",
        "zh": "已跳过（估计 {estimate}）",
    },
    "speed.cell.deadline": {"en": "skipped (time limit)", "zh": "已跳过（超出时间上限）"},
    "speed.deadline_note": {
        "en": "One run stops at {limit} s: cells that would have started or ended later were "
        "skipped. Pick fewer or smaller sizes, or fewer repeats, to measure them.",
        "zh": "一次比赛最多运行 {limit} 秒：会在此之后开始或结束的格子都被跳过了。"
        "少选几个或更小的规模，或减少重复次数，就能测到它们。",
    },
    "speed.skipped_rate_note": {
        "en": "Where pure Python had not yet run a size, its estimate comes from the rate of "
        "plain-Python arithmetic measured on the project's machine (`core.budget`), applied to "
        "the step's multiply-adds: it is not a measurement either, and it alone kept those "
        "cells from running.",
        "zh": "在纯 Python 还没有跑过任何规模的地方，估计值来自在本项目的机器上实测的纯 Python "
        "算术速度（`core.budget`），按这一步的乘加次数换算而来：它同样不是实测值，"
        "这些格子正是因为这个估计才没有运行。",
    },
    "speed.cell.unavailable": {"en": "unavailable", "zh": "不可用"},
    "speed.cell.error": {"en": "error", "zh": "出错"},
    "speed.skipped_note": {
        "en": "A skipped cell's estimate scales pure Python's time at the largest size it ran by "
        "{scaling}. Estimates are not measurements, so they are neither plotted nor used in "
        "speed-ups.",
        "zh": "被跳过的格子里的估计值，是把纯 Python 在实际跑过的最大规模上的耗时按 {scaling} "
        "的比例放大得到的。估计不是实测，所以既不画进图里，也不参与加速比的计算。",
    },
    "speed.mismatch": {
        "en": "{lane} returned a different result from NumPy's at {size} — a bug worth reporting.",
        "zh": "{lane} 在 {size} 上的结果与 NumPy 不一致——这是值得报告的 bug。",
    },
    "speed.unavailable": {"en": "{lane} is unavailable — why", "zh": "{lane} 不可用——原因"},
    "speed.error": {"en": "{lane} failed — the error", "zh": "{lane} 运行出错——错误信息"},
    "speed.speedups.title": {"en": "Speed-ups", "zh": "加速比"},
    "speed.speedups.versus": {"en": "**× vs {versus}**", "zh": "**相对 {versus} 的倍数**"},
    "speed.speedups.note": {
        "en": "× = the other lane's time ÷ this lane's time: above 1× this lane is faster, below "
        "1× it is slower. Only measured times are compared.",
        "zh": "× = 对比对象的耗时 ÷ 本实现的耗时：大于 1× 表示本实现更快，小于 1× 表示更慢。"
        "只比较实测耗时。",
    },
    "speed.highlight": {"en": "{lane} vs {versus}", "zh": "{lane} 对比 {versus}"},
    "speed.highlight.at": {
        "en": "Measured at {size}, the largest size both lanes ran.",
        "zh": "在 {size} 上测得，这是两者都实际运行过的最大规模。",
    },
    "speed.chart.title": {
        "en": "Time against size (log–log)",
        "zh": "耗时随规模的变化（双对数坐标）",
    },
    "speed.chart.y": {"en": "time per call (s)", "zh": "每次调用耗时（秒）"},
    "speed.chart.lane": {"en": "lane", "zh": "实现"},
    "speed.chart.slope.softmax": {
        "en": "The work grows in proportion to the rows, so once the fixed cost of a call stops "
        "mattering every line tends towards a slope of 1 on these log–log axes.",
        "zh": "计算量与行数成正比，所以一旦每次调用的固定开销不再重要，在双对数坐标里每条线的"
        "斜率都会趋近 1。",
    },
    "speed.chart.slope.attention": {
        "en": "Every query meets every key, so the work grows as n²: once overhead stops "
        "mattering the lines tend towards a slope of 2, and doubling n makes a call about four "
        "times slower.",
        "zh": "每个查询都要和每个键相遇，所以计算量随 n² 增长：当开销不再占主导时，"
        "线的斜率趋近 2，n 翻一倍，单次调用大约慢四倍。",
    },
    "speed.chart.slope.minilm": {
        "en": "The dense layers grow as n and attention as n²; at these lengths the matrix "
        "products dominate, so the lines stay close to a slope of 1.",
        "zh": "全连接层的计算量随 n 增长，注意力随 n² 增长；在这些长度下矩阵乘法占主导，"
        "所以线的斜率接近 1。",
    },
    "speed.chart.slope.smollm2_prefill": {
        "en": "The matrix products grow as n and attention as n²; at these lengths the products "
        "dominate, so the lines stay near a slope of 1 while a call's fixed costs (the output "
        "head, starting the threads) fade.",
        "zh": "矩阵乘法的计算量随 n 增长，注意力随 n² 增长；在这些长度下矩阵乘法占主导，"
        "所以线的斜率接近 1，而每次调用的固定开销（输出头、启动线程）逐渐被摊薄。",
    },
    "speed.chart.slope.smollm2_decode": {
        "en": "Each step reads every weight once, whatever `past` is. What grows with `past` is "
        "its attention over the cached keys and values, 9 · (past + 1) · (64 + 64 + 20) "
        "operations a layer (a query·key product, a weighted value and about 20 for the "
        "softmax) against about 3.5 million multiply-adds for the layer's matrices, and the "
        "cache it reads, 45 KiB more per cached token: so a step's time should rise slowly "
        "with `past`.",
        "zh": "无论 `past` 多大，每一步都要把所有权重读一遍。随 `past` 增长的是对缓存中各个键和值的"
        "注意力计算：每层 9 · (past + 1) · (64 + 64 + 20) 次运算（一次查询·键乘积、一次值的加权，"
        "softmax 约 20 次），而每层的矩阵约 350 万次乘加；还有要读取的缓存，每多缓存一个 token "
        "多 45 KiB。所以一步的耗时应当随 `past` 缓慢上升。",
    },
    "speed.chart.slope.train_step": {
        "en": "Each sequence of the batch adds the same products, so the work grows with the "
        "batch and the lines tend towards a slope of 1, while the AdamW update — the same "
        "weights whatever the batch — is a fixed cost a step that larger batches share.",
        "zh": "批里每多一条序列，就多一份同样的矩阵乘法，所以计算量随 batch 增长，"
        "线的斜率趋近 1；而 AdamW 更新无论 batch 多大都是同样那些权重，"
        "是每一步的固定开销，batch 越大，分摊得越薄。",
    },
    "speed.steps.title": {"en": "Training steps per second", "zh": "每秒训练的步数"},
    "speed.steps.note": {
        "en": "1 ÷ the median time of a step: how many such steps a lane would train in a "
        "second, each on a batch of that size.",
        "zh": "1 ÷ 每一步耗时的中位数：这条赛道一秒钟能训练多少步，每步都用这个规模的一批数据。",
    },
    "speed.steps.faster": {
        "en": "{lane} trained at {rate} steps a second at {size}, NumPy at {numpy}: {ratio} "
        "as many steps in the same time.",
        "zh": "{lane} 在 {size} 上每秒训练 {rate} 步，NumPy 每秒 {numpy} 步："
        "同样的时间里步数是 NumPy 的 {ratio}。",
    },
    "speed.steps.not_faster": {
        "en": "{lane} trained at {rate} steps a second at {size}, NumPy at {numpy}: {ratio} "
        "as many, under the {threshold} this page counts as faster.",
        "zh": "{lane} 在 {size} 上每秒训练 {rate} 步，NumPy 每秒 {numpy} 步："
        "是 NumPy 的 {ratio}，低于本页算作更快的 {threshold}。",
    },
    "speed.tokens.title": {"en": "Tokens per second", "zh": "每秒处理的 token 数"},
    "speed.tokens.note": {
        "en": "Tokens one call reads ÷ its median time: n for a prompt, 1 for a generated token.",
        "zh": "一次调用读入的 token 数 ÷ 耗时中位数：读提示时是 n，生成时是 1。",
    },
    "speed.tokens.versus": {
        "en": "{lane}: reading a prompt of {n} tokens ran at {prefill} tokens/s, generating "
        "after {past} cached tokens at {decode} tokens/s — {ratio} as many tokens a second when "
        "they go through together.",
        "zh": "{lane}：读入 {n} 个 token 的提示时每秒 {prefill} 个 token，在缓存已有 {past} 个 "
        "token 时生成，每秒 {decode} 个——"
        "一起处理时每秒的 token 数是逐个生成时的 {ratio}。",
    },
    "speed.tokens.versus_slower": {
        "en": "{lane}: reading a prompt of {n} tokens ran at {prefill} tokens/s, generating "
        "after {past} cached tokens at {decode} tokens/s — here the prompt was not clearly "
        "faster a token ({ratio}, under the {threshold} this page counts as faster).",
        "zh": "{lane}：读入 {n} 个 token 的提示时每秒 {prefill} 个 token，在缓存已有 {past} 个 "
        "token 时生成，每秒 {decode} 个——这里读提示时每个 token 并没有更快（{ratio}，低于本页"
        "算作更快的 {threshold}）。",
    },
    "speed.tokens.why": {
        "en": "A prompt's tokens are all known, so they go through each matrix together; "
        "generation cannot batch its tokens like that, since each one needs the one before. "
        "(NumPy's ratio also holds its expansion of the blocks, paid once for the whole prompt "
        "but again for every generated token.)",
        "zh": "提示里的 token 都是已知的，所以能一起经过每个矩阵；生成却无法这样把 token "
        "攒成一批，因为每个 token 都要等前一个生成出来。"
        "（NumPy 的倍数里还包含它对量化块的展开：整个提示只展开一次，"
        "每生成一个 token 却都要再展开一次。）",
    },
    "speed.tokens.race_both": {
        "en": "Race both SmolLM2 operations to compare reading a prompt with generating.",
        "zh": "两个 SmolLM2 运算都跑一遍，就能比较读提示与生成的速度。",
    },
    "speed.chart.slope.embedding": {
        "en": "A lookup does no arithmetic: it copies ids × d numbers, so its time is memory "
        "traffic plus a fixed cost per call. Pure Python also pays to convert its inputs to "
        "lists first.",
        "zh": "查表不做任何算术，只是复制 ids × d 个数，"
        "所以耗时由内存搬运和每次调用的固定开销构成。"
        "纯 Python 还要先把输入转换成列表，这部分也要付出代价。",
    },
    "speed.download": {"en": "Download every cell as CSV", "zh": "下载全部结果（CSV）"},
    "speed.lane.python": {"en": "Pure Python", "zh": "纯 Python"},
    "speed.lane.numpy": {"en": "NumPy", "zh": "NumPy"},
    "speed.lane.rust-1": {"en": "Rust · 1 thread", "zh": "Rust · 单线程"},
    "speed.lane.rust-all": {
        "en": "Rust · all {cores} {cores:thread|threads}",
        "zh": "Rust · 全部 {cores} 个线程",
    },
    "speed.external.onnxruntime.raced": {
        "en": "ONNX Runtime races here too: the same weights as an ONNX graph built from the "
        "model's safetensors, run on every core, its output checked against NumPy's like ours.",
        "zh": "ONNX Runtime 也参加这场比赛：同一份权重，由模型的 safetensors 搭成 ONNX 计算图，"
        "在全部核心上运行，输出和我们的一样要与 NumPy 的结果核对。",
    },
    "speed.external.onnxruntime.missing": {
        "en": "ONNX Runtime, which many embedding services run, can race here too once it is "
        "installed: `pip install onnxruntime==1.32.0`, then restart the app.",
        "zh": "许多生成句向量的服务用的是 ONNX Runtime；安装后它也能在这里参赛："
        "`pip install onnxruntime==1.32.0`，然后重启应用。",
    },
    "speed.lane.onnxruntime": {
        "en": "ONNX Runtime · {cores} {cores:thread|threads}",
        "zh": "ONNX Runtime · {cores} 个线程",
    },
    "speed.solved": {
        "en": "The same arithmetic in compiled kernels, which can also share the work among "
        "several threads; each race checks their numbers against NumPy's. How much faster they "
        "are on this machine, and whether more threads help, is what the race measures.",
        "zh": "同样的算术交给编译好的内核来做，它们还可以把工作分给多个线程；每场比拼都把它们的"
        "结果与 NumPy 的核对。在这台机器上快多少、多线程有没有帮助，正是这场比赛要测的。",
    },
    "speed.threads.one_core": {
        "en": "This machine offers {cores} core, so “all threads” is one thread too: a difference "
        "between the two Rust lanes is noise, not parallelism.",
        "zh": "这台机器只提供 {cores} 个核心，所以“全部线程”也就是一个线程：两条 Rust 路线之间的"
        "差别只是噪声，而不是并行带来的。",
    },
    "speed.threads.helped": {
        "en": "**More threads helped here.** At every size both Rust lanes ran, all {cores} "
        "threads ran {span} as fast as one thread (this page counts {threshold} or more as "
        "faster).",
        "zh": "**这里多线程有帮助。** 在两条 Rust 路线都跑过的每个规模上，全部 {cores} 个线程的"
        "速度是单线程的 {span}（本页把 {threshold} 及以上算作更快）。",
    },
    "speed.threads.no_help": {
        "en": "**More threads did not help here.** At every size both Rust lanes ran, all "
        "{cores} threads ran at {span} the speed of one thread — never the {threshold} this "
        "page counts as faster. When a call has little work, starting and joining the threads "
        "can cost more than sharing the work saves, and other programs may be using the cores.",
        "zh": "**这里多线程没有帮上忙。** 在两条 Rust 路线都跑过的每个规模上，全部 {cores} 个"
        "线程的速度是单线程的 {span}——都没有达到本页算作更快的 {threshold}。一次调用的工作量"
        "不大时，启动和汇合线程的开销可能超过分摊工作省下的时间；其他程序也可能正占用这些核心。",
    },
    "speed.threads.mixed": {
        "en": "**More threads helped at some sizes only.** All {cores} threads ran {span} as fast "
        "as one thread at {helped}; at {other} they ran at {other_span} its speed, under the "
        "{threshold} this page counts as faster.",
        "zh": "**多线程只在部分规模上有帮助。** 在 {helped} 上，全部 {cores} 个线程的速度是单线程"
        "的 {span}；在 {other} 上只有 {other_span}，低于本页算作更快的 {threshold}。",
    },
    "speed.hurts": {
        "en": "A faster kernel does not change how the work grows: attention still compares "
        "every token with every other, n² scores per head, so doubling n still quadruples "
        "that part (see Cost). And reading a prompt is parallel, but generating text is one "
        "token after another, however fast each step is.",
        "zh": "更快的内核改变不了工作量的增长方式：注意力仍要让每个 token 与所有 token 比较，"
        "每个头 n² 个分数，n 翻倍时这部分仍会变成原来的四倍（见“计算代价”）。而且读入提示可以并行，"
        "生成文本却只能一个 token 接一个 token，每一步再快也是如此。",
    },
}
