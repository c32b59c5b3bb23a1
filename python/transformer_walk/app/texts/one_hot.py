"""Words of the One-hot page: the sentence's one-hot vectors, their memory, their orthogonality,
and why one_hot @ E is replaced by a lookup."""

MESSAGES: dict[str, dict[str, str]] = {
    "one_hot.title": {
        "en": "One-hot vectors: identity without meaning",
        "zh": "One-Hot：只有身份，没有含义",
    },
    "one_hot.intro": {
        "en": "The plainest way to turn an id into a vector: make a vector as long as the "
        "vocabulary, all zeros, and put a single 1 at the token's id. It names the token "
        "exactly and can never confuse two of them — which is all it does.",
        "zh": "把编号变成向量，最朴素的办法是：造一个和词表一"
        "样长的全零向量，只在这个 token 的编号处"
        "放一个 1。它能准确地指出是哪个 token，绝不会把两个 token 弄混——而它能做的也仅此而已。",
    },
    # --- the sentence, one-hot --------------------------------------------------------------------
    "one_hot.sentence.title": {"en": "Your sentence, one-hot", "zh": "你的句子，写成 One-Hot"},
    "one_hot.sentence.body": {
        "en": "The toy vocabulary has |V| = **{vocab}** entries, so each of your **{n}** "
        "{n:token|tokens} becomes a row of {vocab} numbers with exactly one 1 in it. Below, every "
        "row is a grey band of zeros with one lit c"
        "ell: the column of the 1 is the token's id.",
        "zh": "玩具词表有 |V| = **{vocab}** 个条目，所以你的"
        " **{n}** 个 token 每个都变成一行 {vocab} "
        "个数，其中只有一个 1。下图中每一行都是一条由 0 组成的灰带，只有一格被点亮："
        "那一格所在的列就是这个 token 的编号。",
    },
    "one_hot.sentence.capped": {
        "en": "The first {shown} of the n = {n} rows are drawn.",
        "zh": "图中只画出了 n = {n} 行中的前 {shown} 行。",
    },
    "one_hot.col.token": {"en": "token", "zh": "token"},
    "one_hot.col.id": {"en": "id (column of the 1)", "zh": "编号（1 所在的列）"},
    "one_hot.col.row": {"en": "the row, abridged", "zh": "这一行（省略写法）"},
    "one_hot.col.ones": {"en": "non-zeros", "zh": "非零个数"},
    "one_hot.chart.token": {"en": "token", "zh": "token"},
    "one_hot.chart.column": {"en": "column (vocabulary id)", "zh": "列（词表编号）"},
    # --- memory -----------------------------------------------------------------------------------
    "one_hot.memory.title": {"en": "How much memory?", "zh": "要占多少内存？"},
    "one_hot.memory.body": {
        "en": "Every one-hot row has |V| entries, so n tokens take n × |V| numbers, and in "
        "float32 four bytes each. The toy vocabulary is tiny; real ones are not. The same "
        "sentence written one-hot against the 50,000-word vocabulary of the article's example, and "
        "against MiniLM's 30,522 WordPiece entries:",
        "zh": "每一行 One-Hot 都有 |V| 个元素，所以 n 个 token 要占 n × |V| 个数，用 float32 存储时"
        "每个数 4 个字节。玩具词表很小，真实的词表可不小。把同一句话分别写成针对原文例子里 "
        "50,000 词的词表、以及 MiniLM 30,522 个 WordPiece 条目的 One-Hot：",
    },
    "one_hot.memory.vocab": {"en": "vocabulary", "zh": "词表"},
    "one_hot.memory.size": {"en": "size |V|", "zh": "大小 |V|"},
    "one_hot.memory.numbers": {"en": "numbers n × |V|", "zh": "数的个数 n × |V|"},
    "one_hot.memory.bytes": {"en": "memory (float32)", "zh": "内存（float32）"},
    "one_hot.memory.useful": {"en": "share that is not 0", "zh": "非零占比"},
    "one_hot.memory.toy": {"en": "toy (this app)", "zh": "玩具模型（本应用）"},
    "one_hot.memory.article": {"en": "the article's example", "zh": "原文的例子"},
    "one_hot.memory.minilm": {"en": "MiniLM WordPiece", "zh": "MiniLM 的 WordPiece"},
    "one_hot.memory.same_n": {
        "en": "Every row uses the toy's n = {n}, to compare the vocabularies alone. MiniLM's own "
        "tokenizer reads this text as n = {own} tokens ([CLS] and [SEP] included): its one-hot "
        "rows would take {size}.",
        "zh": "为了只比较词表大小，每一行都用玩具模型的 n = {n}。MiniLM 自己的分词器把这段文字读成 "
        "n = {own} 个 token（含 [CLS] 和 [SEP]）：它的 One-Hot 行要占 {size}。",
    },
    "one_hot.memory.ids": {
        "en": "The ids alone say the same thing in n × 8 bytes = **{ids}** (int64). For a "
        "50,000-word vocabulary the one-hot form spends **{ratio}×** more memory to store "
        "nothing but zeros and the same n ones.",
        "zh": "只存编号，表达的是同样的信息，只要 n × 8 字节 = **{ids}**（int64）。"
        "对于 50,000 词的词表，One-Hot 形式多花了 **{ratio} 倍**的内存，"
        "存的却只是一堆 0 和同样的 n 个 1。",
    },
    # --- orthogonality ----------------------------------------------------------------------------
    "one_hot.orth.title": {
        "en": "Every two different words are equally unlike",
        "zh": "任意两个不同的词，都一样“不相似”",
    },
    "one_hot.orth.body": {
        "en": "Similarity between vectors is usually measured by the cosine of the angle "
        "between them. Two different one-hot vectors have their 1 in different places, so "
        "their dot product is 0 — they are orthogonal, and their cosine is 0 whatever the "
        "words are. The matrix of cosines between the distinct tokens of your sentence is "
        "therefore the identity: 1 on the diagonal (each token with itself), 0 everywhere "
        "else.",
        "zh": "向量之间的相似度通常用它们夹角的余弦来衡量。两个不同的 One-Hot 向量，1 在不同的"
        "位置上，所以点积为 0——它们互相正交，无论是哪两个词，余弦都是 0。于是，你的句子里"
        "不同 token 之间的余弦矩阵就是单位矩阵：对角线上是 1（每个 token 和它自己），其余全是 0。",
    },
    "one_hot.orth.chart_row": {"en": "token", "zh": "token"},
    "one_hot.orth.chart_col": {"en": "token", "zh": "token"},
    "one_hot.orth.chart_value": {"en": "cosine", "zh": "余弦"},
    "one_hot.orth.identity": {
        "en": "Computed on **{backend}**: the {m} × {m} matrix equals the identity; the largest "
        "cosine between two different tokens is **{largest}**.",
        "zh": "由 **{backend}** 计算：这个 {m} × {m} 的矩阵等于单位矩阵；两个不同 token 之间的最大"
        "余弦是 **{largest}**。",
    },
    "one_hot.orth.not_identity": {
        "en": "Unexpected: the cosine matrix is not the identity (largest off-diagonal value "
        "{largest}) — please report it.",
        "zh": "出乎意料：余弦矩阵不是单位矩阵（非对角线上的最大值为 {largest}）——请报告这个问题。",
    },
    "one_hot.orth.repeated": {
        "en": "{tokens}: {count:this token appears|these tokens appear} more than once in your "
        "sentence. Every occurrence "
        "gets the very same one-hot vector (cosine 1"
        "), so the matrix lists each distinct token "
        "once.",
        "zh": "{tokens}：{count:这个 token|这些 token} 在你的句子里出现了"
        "不止一次。同一个 token 每次出现都是完全相同的 "
        "One-Hot 向量（余弦为 1），所以矩阵里每个不同的 token 只列一次。",
    },
    "one_hot.orth.capped": {
        "en": "The first {shown} of your {m} distinct tokens are drawn.",
        "zh": "图中只画出了你的 {m} 个不同 token 中的前 {shown} 个。",
    },
    "one_hot.orth.single": {
        "en": "Your sentence has a single distinct token, so there is no pair to compare — the "
        "words below still make the point.",
        "zh": "你的句子里只有一个不同的 token，没有可以比较的一对——下面的词照样能说明问题。",
    },
    "one_hot.orth.words": {
        "en": "Compare any words of the vocabulary",
        "zh": "比较词表里的任意几个词",
    },
    "one_hot.orth.words_help": {
        "en": "The toy vocabulary: its common English words and the tokens of your sentence.",
        "zh": "玩具词表：其中的常见英文单词，加上你的句子里的 token。",
    },
    "one_hot.orth.words_few": {
        "en": "Pick at least two words to compare.",
        "zh": "请至少选择两个词来比较。",
    },
    "one_hot.orth.verdict": {
        "en": "One-hot has no way to say that *cat* is closer to *dog* than to *computer*: "
        "for it, every pair of different words is exactly as unlike as every other. The "
        "relation we want, sim(cat, dog) > sim(cat, computer), needs vectors whose "
        "directions can be shared — the next stop's embeddings.",
        "zh": "One-Hot 无法表达 *cat* 与 *dog* 比与 *computer* 更接近：在它看来，任何两个不同的词"
        "都同样不相似。我们想要的关系 sim(cat, dog) > sim(cat, computer)，需要能共享方向的"
        "向量——也就是下一站的词向量（Embedding）。",
    },
    # --- one_hot @ E = lookup ---------------------------------------------------------------------
    "one_hot.lookup.title": {
        "en": "Multiplying by a one-hot vector is looking up a row",
        "zh": "乘以 One-Hot 向量，就是取出一行",
    },
    "one_hot.lookup.body": {
        "en": "An embedding table E has one row of d numbers per vocabulary entry. Multiply a "
        "one-hot row vector by E: every product with a 0 vanishes, and what remains is the row "
        "of E at the position of the 1. So the textbook formula $\\boldsymbol{e}_i = "
        "\\boldsymbol{x}_i^{\\mathsf T} E$ is, in fact, just “take row $\\mathrm{id}_i$ of E”.",
        "zh": "词向量表 E 为词表中的每个条目存一行 d 个数。拿一个 One-Hot 行向量去乘 E："
        "与 0 相乘的项全部消失，剩下的就是 E 中与 1 的位置对应的那一行。所以教科书上的公式 "
        "$\\boldsymbol{e}_i = \\boldsymbol{x}_i^{\\mathsf T} E$，"
        "实际上就是“取出 E 的第 $\\mathrm{id}_i$ 行”。",
    },
    "one_hot.lookup.check": {
        "en": "Checked live for your {n} {n:token|tokens} on **{backend}**: one_hot @ E and "
        "embedding_lookup(E, ids) differ by at most **{diff}** — the same numbers.",
        "zh": "针对你的 {n} 个 token，在 **{backend}** 上现场核对：one_hot @ E 与 "
        "embedding_lookup(E, ids) 的最大差值为 **{diff}**——数字完全一样。",
    },
    "one_hot.lookup.mismatch": {
        "en": "Unexpected: one_hot @ E and the lookup differ by {diff} on {backend} — please "
        "report it.",
        "zh": "出乎意料：在 {backend} 上 one_hot @ E 与查表结果相差 {diff}——请报告这个问题。",
    },
    "one_hot.race.title": {
        "en": "Same numbers, very different cost",
        "zh": "数字相同，代价却天差地别",
    },
    "one_hot.race.body": {
        "en": "With a realistic vocabulary the difference is measurable. Below, your sentence's "
        "ids are looked up in a random table E of |V| rows and d = {d} columns, both ways, on the "
        "machine serving this page: the one-hot route builds the [n, |V|] matrix and multiplies "
        "it by E (n × |V| × d multiply-adds, nearly all of them with 0); the lookup copies n rows "
        "(n × d numbers). A race is timed the first time its sentence and size are asked for, "
        "then shared by everyone on this server for {minutes} minutes.",
        "zh": "词表一旦接近真实规模，差距就能测出来。下面用你的句子的编号，在一张 |V| 行、"
        "d = {d} 列的随机表 E 上，用两种方式各算一遍，在运行这个页面的机器上现场计时："
        "One-Hot 路线先构造 [n, |V|] 矩阵，再与 E 相乘（n × |V| × d 次乘加，几乎全是在乘 0）；"
        "查表路线只复制 n 行（n × d 个数）。同一句子和词表大小第一次被请求时计时一次，"
        "之后 {minutes} 分钟内由这台服务器上的所有人共享。",
    },
    "one_hot.race.vocab": {"en": "Vocabulary size |V| for the race", "zh": "计时用的词表大小 |V|"},
    "one_hot.race.vocab_help": {
        "en": "30,522 is MiniLM's WordPiece vocabulary; 50,000 is the article's example.",
        "zh": "30,522 是 MiniLM 的 WordPiece 词表大小；50,000 是原文的例子。",
    },
    "one_hot.race.running": {"en": "Timing both routes…", "zh": "正在为两种方式计时…"},
    "one_hot.race.capped": {
        "en": "The race takes the first {kept} of your {n} tokens: all of them, one-hot at "
        "|V| = {vocab}, would fill {size}, rebuilt on every rerun of this page.",
        "zh": "这场比赛只取你前 {kept} 个 token（共 {n} 个）"
        "：要是全部写成 |V| = {vocab} 的 One-Hot，"
        "得占 {size}，而且本页每次重新运行都要再造一遍。",
    },
    "one_hot.race.route_one_hot": {"en": "one-hot @ E", "zh": "One-Hot 乘 E"},
    "one_hot.race.route_lookup": {"en": "lookup E[ids]", "zh": "查表 E[ids]"},
    "one_hot.race.part_build": {"en": "build one-hot", "zh": "构造 One-Hot"},
    "one_hot.race.part_matmul": {"en": "multiply by E", "zh": "乘以 E"},
    "one_hot.race.part_lookup": {"en": "copy rows", "zh": "复制行"},
    "one_hot.race.chart_route": {"en": "route", "zh": "方式"},
    "one_hot.race.chart_part": {"en": "time spent on", "zh": "耗时用在"},
    "one_hot.race.chart_time": {"en": "median time (ms)", "zh": "耗时中位数（毫秒）"},
    "one_hot.race.metric_one_hot": {"en": "one-hot route", "zh": "One-Hot 路线"},
    "one_hot.race.metric_lookup": {"en": "lookup", "zh": "查表"},
    "one_hot.race.metric_speedup": {"en": "lookup is faster by", "zh": "查表快了"},
    "one_hot.race.work": {
        "en": "Work: n × |V| × d = {n} × {vocab} × {d} = **{madds}** multiply-adds for the "
        "one-hot route, against n × d = **{copies}** numbers copied by the lookup. Both give "
        "the same result (max difference {diff}).",
        "zh": "计算量：One-Hot 路线要做 n × |V| × d = {n} × {vocab} × {d} = **{madds}** 次乘加，"
        "而查表只复制 n × d = **{copies}** 个数。两者结果相同（最大差值 {diff}）。",
    },
    "one_hot.race.meta": {
        "en": "Measured on **{backend}** with time.perf_counter: one warm-up call, then the "
        "median of {repeats} or more samples per step. The product one_hot @ E is NumPy's in "
        "every backend (the backends have no matrix product). Timings move with the load of "
        "this machine: compare the two routes, not the absolute numbers.",
        "zh": "在 **{backend}** 上用 time.perf_counter 计时：先预热一次，"
        "然后每一步取至少 {repeats} 个样本的中位数。"
        "无论哪个后端，one_hot @ E 里的矩阵乘法都由 NumPy 完成"
        "（后端没有矩阵乘法函数）。计时会随这台机器的负载波动：请比较两种方式的相对快慢，"
        "而不是绝对数值。",
    },
    "one_hot.why": {
        "en": "**Why programs look rows up.** Real code never builds one-hot vectors for its "
        "input: it keeps the ids and indexes the table (PyTorch's nn.Embedding, or "
        "embedding_lookup here). The formula $\\boldsymbol{x}_i^{\\mathsf T} E$ is still worth "
        "knowing — it says the "
        "lookup is a linear layer, which is why E can be trained by gradient descent like any "
        "other weight matrix.",
        "zh": "**为什么程序都直接查表。** 真实的代码从不为输入构造 One-Hot 向量：它保留编号，"
        "直接按编号索引词向量表（PyTorch 的 nn.Embedding，或者这里的 embedding_lookup）。"
        "不过 $\\boldsymbol{x}_i^{\\mathsf T} E$ 这个公式仍然值得记住——"
        "它说明查表本质上是一个线性层，"
        "所以 E 可以像其他权重矩阵一样，用梯度下降来训练。",
    },
    "one_hot.solved": {
        "en": "exact identity: every token has its own vector, and no two are ever confused.",
        "zh": "精确的身份标识：每个 token 都有自己的向量，任何两个都不会混淆。",
    },
    "one_hot.hurts": {
        "en": "no notion of similarity (every pair of words is equally far apart), and vectors "
        "as long as the vocabulary, nearly all zeros.",
        "zh": "没有相似性的概念（任意两个词都一样远），而且向量和词表一样长，几乎全是 0。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "one_hot.tex.bytes": {"en": "bytes", "zh": "字节"},
}
