"""Words of the Cost page (prefix ``cost.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "cost.title": {"en": "Cost", "zh": "计算代价"},
    "cost.intro": {
        "en": "What does attention buy, and what does it charge? It shortens the road between any "
        "two tokens to one step and lets a whole layer be computed at once — and pays for that "
        "with an ${n \\times n}$ matrix per head. Below, the counts for sizes you choose, then the "
        "price measured on this machine.",
        "zh": "注意力换来了什么，又付出了什么？它把任意两个 token 之间的路径缩短成一步，"
        "并让整层可以同时计算——代价是每个头都要一个 ${n \\times n}$ 的矩阵。"
        "下面先按你选的尺寸算出各项计数，再在这台机器上实测代价。",
    },
    "cost.empty": {
        "en": "The sidebar's text has no tokens, so n starts at 1; type any n below.",
        "zh": "侧边栏中的文本没有任何 token，所以 n 从 1 开始；可以在下面直接输入任意 n。",
    },
    "cost.paths.title": {"en": "Paths and parallelism", "zh": "路径长度与并行性"},
    "cost.paths.intro": {
        "en": "How many steps must a signal take from the first token to the last, and how many "
        "steps of one layer must wait for the previous one? An RNN passes a hidden state along, "
        "one token after another; a stack of width-$k$ convolutions widens its view by $k-1$ "
        "tokens per layer; self-attention compares every pair directly.",
        "zh": "信号从第一个 token 传到最后一个要走几步？一层里又有多少步必须等前一步算完？RNN 一个"
        "接一个地传递隐藏状态；宽度为 $k$ 的卷积每叠一层，视野只扩大 $k-1$ 个 token；自注意力则直接"
        "比较每一对位置。",
    },
    "cost.n": {"en": "n (tokens)", "zh": "n（token 数）"},
    "cost.n_help": {
        "en": "Starts at the number of tokens of the sidebar's sentence. n counts tokens, not "
        "words.",
        "zh": "初始值是侧边栏句子的 token 数。n 数的是 token，不是单词。",
    },
    "cost.k": {"en": "CNN kernel width k", "zh": "CNN 卷积核宽度 k"},
    "cost.d": {"en": "d (vector width)", "zh": "d（向量宽度）"},
    "cost.rnn": {"en": "RNN", "zh": "RNN（循环网络）"},
    "cost.cnn": {"en": "CNN (stacked, width k)", "zh": "CNN（堆叠，宽度 k）"},
    "cost.attention": {"en": "Self-attention", "zh": "自注意力"},
    "cost.col.model": {"en": "layer type", "zh": "层的类型"},
    "cost.col.path": {
        "en": "path first → last token (steps or layers)",
        "zh": "首个到末个 token 的路径（步数或层数）",
    },
    "cost.col.sequential": {
        "en": "sequential steps in one layer",
        "zh": "一层内必须依次执行的步数",
    },
    "cost.col.ops": {
        "en": "multiply-adds per layer, mixing term",
        "zh": "每层乘加次数（混合项）",
    },
    "cost.paths.projections": {
        "en": "As in Vaswani et al.'s Table 1, each row counts how the layer mixes tokens: for "
        "self-attention only $QK^T$ and $AV$, {mixing}. The same layer also sends every token "
        "through $W^Q$, $W^K$, $W^V$ and $W^O$: $4nd^2$ = {projections} more, {times} its mixing "
        "term here — the next section weighs the two.",
        "zh": "和 Vaswani 等人论文的表 1 一样，每一行只统计这一层怎样混合各个 token：自注意力只算 "
        "$QK^T$ 和 $AV$，共 {mixing}。同一层还要让每个 token 经过 $W^Q$、$W^K$、$W^V$ 和 $W^O$："
        "$4nd^2$ = {projections}，是这里混合项的 {times}——下一节会比较这两者。",
    },
    "cost.paths.caveat": {
        "en": '"Parallel" is about training and encoding: all positions of a layer are computed '
        "at the same time. A model that generates text still produces token 2 after token 1, "
        "token 3 after token 2 — generation stays sequential. The n × d² of the RNN and the "
        "k·n·d² of the CNN are per-layer costs; their paths need n − 1 steps or many layers.",
        "zh": "“并行”指的是训练和编码时一层中所有位置可以同时计算。生成文本的模型仍然要先有 token "
        "1 才能生成 token 2，再生成 token 3——生成阶段依然是顺序的。表中 RNN 的 n·d² 和 CNN 的 "
        "k·n·d² 是每层的代价；它们连接首尾需要 n − 1 步或很多层。",
    },
    "cost.cross.title": {
        "en": "Where n²·d overtakes n·d²",
        "zh": "n²·d 在哪里超过 n·d²",
    },
    "cost.cross.intro": {
        "en": "A layer does two kinds of work. Comparing every query with every key and mixing "
        "the values costs about $n^2 d$; pushing each token through ${d \\times d}$ matrices (the "
        "Q/K/V/O projections, the FFN) costs about $n d^2$. For short inputs the matrices "
        "dominate; past $n = d$ the attention term does, and it keeps growing with the square "
        "of the length.",
        "zh": "一层里有两类计算。每个查询与每个键比较、再混合各个值，约需 $n^2 d$；让每个 token 穿"
        "过 ${d \\times d}$ 的矩阵（Q/K/V/O 投影和 FFN）约需 $n d^2$。"
        "输入较短时矩阵乘法占大头；一旦 "
        "$n > d$，注意力项占主导，而且会随长度的平方继续增长。",
    },
    "cost.cross.yours": {
        "en": "For your n = {n} and d = {d}: n²·d / n·d² = n / d = **{ratio}**.",
        "zh": "对于你选的 n = {n}、d = {d}：n²·d / n·d² = n / d = **{ratio}**。",
    },
    "cost.cross.caveat": {
        "en": "These are leading terms without constants. Counted with them (4 projections, an "
        "FFN of width 4d, QKᵀ and AV) a layer spends about 12·n·d² against 2·n²·d, so in real "
        "layers the crossover comes later, near n = 6d. Note too that d_model = 512 is a width, "
        "not a length limit.",
        "zh": "这里只比较主项，没有常数。若把常数算上（4 个投影、宽度 4d 的 FFN、QKᵀ 和 AV），一层"
        "约花 12·n·d² 对 2·n²·d，所以真实层里交叉点更靠后，约在 n = 6d。另外，d_model = 512 是向量"
        "宽度，不是长度上限。",
    },
    "cost.axis.n": {"en": "n (tokens)", "zh": "n（token 数）"},
    "cost.axis.ops": {"en": "multiply-adds", "zh": "乘加次数"},
    "cost.axis.term": {"en": "term", "zh": "项"},
    "cost.axis.seconds": {"en": "median seconds per call", "zh": "每次调用的中位时间（秒）"},
    "cost.axis.lane": {"en": "implementation", "zh": "实现"},
    "cost.axis.bytes": {"en": "bytes of scores held", "zh": "同时保存的分数字节数"},
    "cost.axis.memory": {"en": "memory", "zh": "内存"},
    "cost.time.title": {"en": "Measured: time against n", "zh": "实测：时间随 n 的变化"},
    "cost.time.intro": {
        "en": "One head of width d = {d} (512 / 8, as in the base model), float32, seeded random "
        "q, k, v of shape [n, d]. Two implementations: the formula written out in NumPy, which "
        "builds the whole n × n matrix, and rust_core.attention, which walks it tile by tile. "
        "Each point is the median of several timed calls after a warm-up; the whole run is "
        "held to a few seconds.",
        "zh": "一个宽度 d = {d} 的头（512 / 8，与基础模型相同），float32，q、k、v 为带种子的随机 "
        "[n, d] 矩阵。两种实现：用 NumPy 直接写出的公式，会构造完整的 n × n 矩阵；以及 "
        "rust_core.attention，按块逐块处理。每个点是预热之后多次计时的中位数；整次测量控制在几秒"
        "之内。",
    },
    "cost.time.max_n": {"en": "Largest n timed", "zh": "计时的最大 n"},
    "cost.time.one_thread": {"en": "One thread each", "zh": "各用一个线程"},
    "cost.time.again": {"en": "Measure again", "zh": "重新测量"},
    "cost.time.measure": {"en": "Measure", "zh": "开始测量"},
    "cost.time.not_yet": {
        "en": "Nothing measured yet: press **Measure** to time both lanes on this machine "
        "(at most {budget} s; the result stays here for this session).",
        "zh": "还没有测量结果：点击 **开始测量**，在这台机器上为两条路线计时（最多 {budget} 秒；"
        "本次会话中结果会一直保留）。",
    },
    "cost.time.progress": {"en": "Timing attention…", "zh": "正在为注意力计时…"},
    "cost.time.none": {
        "en": "Nothing was measured within the time budget; try a smaller largest n.",
        "zh": "在时间预算内没有测到任何结果；请调小最大 n。",
    },
    "cost.lane.numpy": {"en": "NumPy formula", "zh": "NumPy 公式"},
    "cost.lane.rust": {"en": "rust_core (tiled)", "zh": "rust_core（分块）"},
    "cost.time.slope": {"en": "fitted slope, {lane}", "zh": "拟合斜率：{lane}"},
    "cost.time.slope_note": {
        "en": "On log–log axes t ∝ n^p is a straight line of slope p. Doubling n doubles both the "
        "queries and the keys, so the arithmetic grows fourfold: the n² term alone gives p = 2, "
        "and a call's fixed costs flatten the line at small n. Each lane's sentence reads its "
        "fitted slope with the 95% interval that the spread of its points about the line allows.",
        "zh": "在双对数坐标中，t ∝ n^p 是一条斜率为 p 的直线。n 翻倍时查询和键都翻倍，计算量变成四"
        "倍：单看 n² 项，p = 2；在 n 较小时，每次调用的固定开销会让曲线变平。每种实现下面的那句话，"
        "都按拟合斜率以及各点偏离直线的程度所允许的 95% 区间来解读。",
    },
    "cost.fit.quadratic": {
        "en": "**p ≈ 2.** The fitted slope is {slope}, and its 95% interval over the {points} "
        "sizes fitted, {low} to {high}, holds 2: over these sizes the time grew as n².",
        "zh": "**p ≈ 2。** 拟合斜率为 {slope}，由参与拟合的 {points} 个规模得到的 95% 区间为 "
        "{low} 到 {high}，包含 2：在这些规模上，耗时按 n² 增长。",
    },
    "cost.fit.below": {
        "en": "**p < 2.** The fitted slope is {slope}, and its 95% interval over the {points} "
        "sizes fitted, {low} to {high}, lies below 2: over these sizes the time grew more slowly "
        "than n². A call's fixed costs, or work spread over more threads as n grows, can hide "
        "part of the n² term at these lengths.",
        "zh": "**p < 2。** 拟合斜率为 {slope}，由参与拟合的 {points} 个规模得到的 95% 区间为 "
        "{low} 到 {high}，整个落在 2 以下：在这些规模上，耗时比 n² 增长得慢。在这样的长度下，"
        "每次调用的固定开销，或随 n 增大而分摊到更多线程上的计算，都可能掩盖一部分 n² 项。",
    },
    "cost.fit.above": {
        "en": "**p > 2.** The fitted slope is {slope}, and its 95% interval over the {points} "
        "sizes fitted, {low} to {high}, lies above 2: over these sizes the time grew faster "
        "than n². One possible cause: the larger n × n matrices no longer fit in the processor's "
        "caches, so each number costs more to reach.",
        "zh": "**p > 2。** 拟合斜率为 {slope}，由参与拟合的 {points} 个规模得到的 95% 区间为 "
        "{low} 到 {high}，整个落在 2 以上：在这些规模上，耗时比 n² 增长得快。一种可能的原因是："
        "较大的 n × n 矩阵放不进处理器的缓存，每个数读起来都更费时。",
    },
    "cost.fit.noisy": {
        "en": "**Too noisy to read.** The fitted slope is {slope}, but its 95% interval over the "
        "{points} sizes fitted runs from {low} to {high}, more than ±{reach}: the points stray "
        "too far from one line to say how the time grows. Measure again, when the machine is "
        "quieter, or time more sizes with a larger largest n.",
        "zh": "**噪声太大，无法解读。** 拟合斜率为 {slope}，但由参与拟合的 {points} 个规模得到的 "
        "95% 区间从 {low} 到 {high}，超出 ±{reach}：这些点离一条直线太远，说不出耗时如何增长。"
        "请在机器较空闲时重新测量，或调大最大 n，多测几个规模。",
    },
    "cost.fit.two_points": {
        "en": "**Only {points} sizes.** The slope through them is {slope}, but two points always "
        "lie on a line, so nothing says how far to trust it. Raise the largest n to fit more "
        "sizes.",
        "zh": "**只有 {points} 个规模。** 过这两点的斜率是 {slope}，但两点总在一条直线上，"
        "看不出这个斜率有多可信。调大最大 n，就能拟合更多规模。",
    },
    "cost.time.no_rust": {
        "en": "rust_core is not installed here, so only the NumPy formula was timed.",
        "zh": "这里没有安装 rust_core，所以只测了 NumPy 公式。",
    },
    "cost.time.table": {"en": "The measured medians", "zh": "测得的中位数"},
    "cost.col.median_ms": {"en": "median (ms)", "zh": "中位数（毫秒）"},
    "cost.col.samples": {"en": "samples", "zh": "样本数"},
    "cost.time.one": {"en": "one thread for each implementation", "zh": "每种实现各用一个线程"},
    "cost.time.all": {"en": "each implementation's default threads", "zh": "每种实现的默认线程数"},
    "cost.time.caveat": {
        "en": "Measured just now on this machine with {one}; other programs running here shift "
        "the numbers. These are measurements, not promises.",
        "zh": "这是刚刚在这台机器上测得的结果（{one}）；机器上同时运行的其他程序会影响这些数字。它"
        "们是测量值，而不是保证。",
    },
    "cost.mem.title": {
        "en": "Memory: the whole matrix vs one tile",
        "zh": "内存：整个矩阵对比一个分块",
    },
    "cost.mem.intro": {
        "en": "Written out, softmax(q kᵀ/√d) needs all n × n scores at once: n²·4 bytes in "
        "float32, per head. rust_core never builds that matrix: each task takes {q} query rows "
        "and walks the keys {k} at a time, keeping a running maximum and sum per row (the "
        '"online softmax" of FlashAttention), so it holds at most a {q} × {k} tile of scores '
        "whatever n is (rust_core/src/kernels/attention.rs, BLOCK_Q and BLOCK_K). The "
        "arithmetic is still n²·d — tiling saves memory, not multiplications.",
        "zh": "直接写出公式时，softmax(q kᵀ/√d) 需要同时保存全部 n × n 个分数：float32 下每个头占 "
        "n²·4 字节。rust_core 从不构造这个矩阵：每个任务取 {q} 行查询，每次处理 {k} 个键，并为每行"
        "维护一个运行中的最大值和总和（FlashAttention 的“在线 softmax”），因此无论 n 多大，它最多"
        "只保存一个 {q} × {k} 的分数块（见 rust_core/src/kernels/attention.rs 中的 "
        "BLOCK_Q 和 BLOCK_K）。计算量仍然是 n²·d——分块省的是内存，不是乘法。",
    },
    "cost.mem.full": {"en": "full n × n matrix", "zh": "完整的 n × n 矩阵"},
    "cost.mem.tile": {"en": "one tile (tiled kernel)", "zh": "一个块（分块内核）"},
    "cost.mem.caveat": {
        "en": "Scores only, one head, one task; q, k, v and the output are [n, d] in both cases. "
        "With several threads each running task holds its own tile.",
        "zh": "只计分数、一个头、一个任务；两种做法中 q、k、v 和输出都是 [n, d]。多线程时每个正在"
        "运行的任务各有自己的一个块。",
    },
    "cost.solved": {
        "en": "Any token reaches any other in one step, and a layer's positions are computed "
        "together.",
        "zh": "任意 token 一步就能到达其他任意 token，一层中的所有位置可以一起计算。",
    },
    "cost.hurts": {
        "en": "Standard attention's time and memory grow with n². Tiled kernels fix the memory; "
        "the n² time needs sparse, linear or other cheaper kinds of attention.",
        "zh": "标准注意力的时间和内存随 n² 增长。分块内核解决了内存问题；n² 的时间则需要稀疏、"
        "线性或其他更省的注意力。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "cost.tex.attention": {"en": "attention:", "zh": "注意力："},
    "cost.tex.ops": {"en": "multiply-adds per layer:", "zh": "每层乘加次数："},
    "cost.tex.full": {"en": "full matrix", "zh": "整个矩阵"},
    "cost.tex.vs": {"en": "vs", "zh": "对比"},
    "cost.tex.tile": {"en": "one tile", "zh": "一个分块"},
}
