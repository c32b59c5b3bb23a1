"""Words of the Self-attention matrix page (prefix ``sam.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "self_attention.title": {"en": "The self-attention matrix", "zh": "自注意力矩阵"},
    "self_attention.intro": {
        "en": "In *self*-attention the queries, the keys and the values are all made from one "
        "and the same sequence $X$: every token asks, and every token of the same sentence "
        "answers. Stack the answers and you get a square table of weights, one row per token "
        "that is updating itself and one column per token it can draw on. Below is that table "
        "for the sentence in the sidebar, computed by the toy model.",
        "zh": "在*自*注意力里，查询、键和值全都来自同一个序列 $X$：每个 token 都在提问，"
        "同一句话里的每个 token 也都在作答。把所有回答排在一起，就得到一张方形的权重表："
        "每一行对应一个正在更新自身表示的 token，每一列对应一个它可以从中取信息的 token。"
        "下面就是玩具模型为侧边栏里的句子算出的这张表。",
    },
    "self_attention.computing": {"en": "Running the toy model…", "zh": "正在运行玩具模型…"},
    "self_attention.head": {"en": "Head", "zh": "注意力头"},
    "self_attention.head_label": {"en": "head {number}", "zh": "第 {number} 个头"},
    "self_attention.head_help": {
        "en": "The toy model has h = 2 heads; each has its own matrix. The Multi-head page "
        "puts them side by side.",
        "zh": "玩具模型有 h = 2 个头，每个头都有自己的一张矩阵。多头注意力那一页会把它们并排展示。",
    },
    "self_attention.causal": {"en": "Causal mask", "zh": "因果遮罩"},
    "self_attention.causal_help": {
        "en": "Let each token see only itself and the tokens before it, as a decoder that "
        "generates text must.",
        "zh": "让每个 token 只能看到自己和它前面的 token——生成文本的解码器必须这样做。",
    },
    # --- the matrix -------------------------------------------------------------------------
    "self_attention.matrix.title": {
        "en": "Every token against every token",
        "zh": "每个 token 对每个 token",
    },
    "self_attention.matrix.body": {
        "en": "Row $i$ is the query: the token whose new representation is being built. Column "
        "$j$ is the key. The cell $\\alpha_{ij}$ is the share of token $j$'s value that "
        "token $i$ takes "
        "in. The matrix $QK^{\\mathrm T}$ has one score for each ordered pair, so with $n$ "
        "tokens there are ${n \\times n}$ of them; softmax turns each row into weights that add "
        "up to 1.",
        "zh": "第 $i$ 行是查询，也就是正在构建新表示的那个 token；第 $j$ 列是键。格子里的 "
        "$\\alpha_{ij}$ 表示 token $i$ 从 token $j$ 的值向量里取走多大的份额。"
        "矩阵 $QK^{\\mathrm T}$ "
        "为每一个有序的 token 对给出一个分数，所以 $n$ 个 token 就有 ${n \\times n}$ 个分数；"
        "softmax 再把每一行变成加起来等于 1 的权重。",
    },
    "self_attention.window_help": {
        "en": "The matrix shows {shown} of the {n} tokens at a time; slide to move the window.",
        "zh": "矩阵一次显示 {n} 个 token 中的 {shown} 个；拖动滑块可以移动显示窗口。",
    },
    "self_attention.window_note": {
        "en": "Showing tokens {first}–{last} of {n}. The weights were computed over all {n} "
        "tokens, so the rows of this window need not add up to 1.",
        "zh": "当前显示第 {first}–{last} 个 token（共 {n} 个）。权重是在全部 {n} 个 token 上"
        "计算的，所以窗口里每一行的和不一定等于 1。",
    },
    "self_attention.axis.query": {
        "en": "query i (updating itself)",
        "zh": "查询 i（正在更新自身）",
    },
    "self_attention.axis.key": {"en": "key j", "zh": "键 j"},
    "self_attention.row_sums": {
        "en": "Each row summed over all n keys, as computed: smallest {low}, largest {high} — "
        "softmax hands out exactly 1 per query.",
        "zh": "按全部 n 个键对每一行求和的实际结果：最小 {low}，最大 {high}——"
        "softmax 给每个查询分配的权重总和恰好是 1。",
    },
    # --- one query row ----------------------------------------------------------------------
    "self_attention.row.title": {
        "en": "One row: what a token takes in",
        "zh": "看一行：一个 token 收进了什么",
    },
    "self_attention.row.body": {
        "en": "Pick a query token. Its row of the matrix says how much of each token's value "
        "vector it blends into its new representation; the blend is the head's output for that "
        "token. Below, the sum is worked out term by term and compared with the output row the "
        "model itself recorded.",
        "zh": "选一个查询 token。它在矩阵里的那一行说明：在构建新表示时，它从每个 token 的值向量"
        "里各取多少来混合；混合的结果就是这个头对该 token 的输出。下面逐项算出这个加权和，"
        "并与模型自己记录的输出行对照。",
    },
    "self_attention.row.pick": {"en": "Query token i", "zh": "查询 token i"},
    # the words before the token: a long token's title is cut at its end
    "self_attention.row.weight": {
        "en": "weight given by “{token}”",
        "zh": "权重：由 “{token}” 分配",
    },
    "self_attention.row.top_weight": {"en": "Largest weight", "zh": "最大权重"},
    "self_attention.row.top_one": {
        "en": "The largest weight, {weight}, goes to “{tokens}”.",
        "zh": "最大的权重 {weight} 给了 “{tokens}”。",
    },
    "self_attention.row.top_tie": {
        "en": "{count} keys tie for the largest weight, {weight}: {tokens}.",
        "zh": "{count} 个键并列最大权重 {weight}：{tokens}。",
    },
    "self_attention.row.sum": {"en": "Σⱼ αᵢⱼ (row sum)", "zh": "Σⱼ αᵢⱼ（行和）"},
    "self_attention.row.check": {
        "en": "Σⱼ αᵢⱼ vⱼ = {z} equals row {row} of the head's output in the trace, {out} "
        "(largest difference {diff}).",
        "zh": "Σⱼ αᵢⱼ vⱼ = {z}，与轨迹中这个头输出的第 {row} 行 {out} 相同（最大差值 {diff}）。",
    },
    # --- direction --------------------------------------------------------------------------
    "self_attention.dir.title": {
        "en": "αᵢⱼ ≠ αⱼᵢ: attention has a direction",
        "zh": "αᵢⱼ ≠ αⱼᵢ：注意力是有方向的",
    },
    "self_attention.dir.body": {
        "en": "The weight in row $i$, column $j$ answers *how much does $i$ draw from $j$*. "
        "The mirrored cell answers the opposite question, *how much does $j$ draw from $i$*. "
        "The two come from different queries and different softmax rows, so nothing makes "
        "them equal: the matrix is, in general, not symmetric.",
        "zh": "第 $i$ 行第 $j$ 列的权重回答的是：*$i$ 从 $j$ 那里取了多少信息*。"
        "对称位置上的格子回答的是相反的问题：*$j$ 从 $i$ 那里取了多少*。两者来自不同的查询、"
        "不同的 softmax 行，没有任何理由相等：这个矩阵一般不是对称的。",
    },
    "self_attention.dir.i": {"en": "Token i (the one updating)", "zh": "token i（正在更新的一方）"},
    "self_attention.dir.j": {"en": "Token j (the one drawn on)", "zh": "token j（被取信息的一方）"},
    "self_attention.dir.gap": {"en": "αᵢⱼ − αⱼᵢ", "zh": "差值 αᵢⱼ − αⱼᵢ"},
    "self_attention.dir.meaning": {
        "en": "When “{ti}” updates itself it takes **{a_ij}** of its blend from “{tj}”; when "
        "“{tj}” updates itself it takes **{a_ji}** from “{ti}”.",
        "zh": "“{ti}” 更新自身时，有 **{a_ij}** 的份额来自 “{tj}”；而 “{tj}” 更新自身时，"
        "来自 “{ti}” 的份额是 **{a_ji}**。",
    },
    "self_attention.dir.one": {
        "en": "With one token there is no pair: αᵢⱼ and αⱼᵢ need two different tokens. Type a "
        "longer sentence to compare the two directions.",
        "zh": "只有一个 token 时没有“一对”：比较 αᵢⱼ 和 αⱼᵢ 需要两个不同的 token。"
        "输入更长的句子，才能比较两个方向。",
    },
    "self_attention.dir.same": {
        "en": "i = j: a token's weight on itself is its own mirror image. Pick two different "
        "tokens.",
        "zh": "i = j 时，一个 token 对自己的权重就是它自己的镜像。请选两个不同的 token。",
    },
    "self_attention.dir.heatmap": {
        "en": "A − Aᵀ for this head: zero everywhere only if A were symmetric",
        "zh": "这个头的 A − Aᵀ：只有 A 对称时才处处为零",
    },
    "self_attention.dir.window": {
        "en": "Long input: the map shows queries {q0}–{q1} and keys {k0}–{k1} of {n}, around "
        "the pair “{ti}” → “{tj}”.",
        "zh": "输入较长：图中显示 {n} 个中的第 {q0}–{q1} 个查询和第 {k0}–{k1} 个键，"
        "围绕 “{ti}” → “{tj}” 这一对。",
    },
    "self_attention.dir.largest": {
        "en": "The most lopsided pair in this head: “{ti}” draws {gap} more from “{tj}” than "
        "“{tj}” draws from “{ti}”.",
        "zh": "这个头里最不对称的一对：“{ti}” 从 “{tj}” 取的信息，比 “{tj}” 从 “{ti}” 取的多 "
        "{gap}。",
    },
    # --- causal mask ------------------------------------------------------------------------
    "self_attention.causal.title": {"en": "The causal mask", "zh": "因果遮罩"},
    "self_attention.causal.body": {
        "en": "An encoder reads the whole sentence at once, so every token may look both ways. "
        "A decoder that writes text one token at a time must not peek at tokens it has not "
        "produced yet: it models $P(x_t \\mid x_1, \\ldots, x_{t-1})$. The causal mask sets the "
        "scores above the diagonal to $-\\infty$ before the softmax, so their weights become "
        "exactly 0. Flip the **Causal mask** switch at the top and watch the upper triangle "
        "of the matrix empty out.",
        "zh": "编码器一次读入整句话，所以每个 token 都可以前后都看。逐个 token 生成文本的解码器"
        "则不能偷看还没生成的 token：它建模的是 $P(x_t \\mid x_1, \\ldots, x_{t-1})$。"
        "因果遮罩在 softmax 之前把对角线以上的分数设为 $-\\infty$，于是这些位置的权重恰好为 0。"
        "打开页面上方的**因果遮罩**开关，看看矩阵的上三角如何被清空。",
    },
    "self_attention.causal.mass": {
        "en": "Weight above the diagonal (this head; its {n} {n:row holds|rows hold} {n} in all)",
        "zh": "对角线以上的权重（本头；{n} 行合计为 {n}）",
    },
    "self_attention.causal.first": {
        "en": "Tokens the first token draws on (this head)",
        "zh": "第一个 token 取信息的 token 数（本头）",
    },
    "self_attention.causal.on": {
        "en": "Masked: nothing above the diagonal. The first token, “{first}”, can see only "
        "itself: {seen}.",
        "zh": "已遮罩：对角线以上全部为零。第一个 token “{first}” 只能看到它自己：{seen}。",
    },
    "self_attention.causal.one": {
        "en": "With one token there is nothing after it to hide: its one weight is 1 on itself, "
        "mask or no mask. Type a longer sentence to see the mask at work.",
        "zh": "只有一个 token 时，它后面没有可以遮住的东西：有没有遮罩，"
        "它唯一的权重都是对自己的 1。输入更长的句子，才能看到遮罩的作用。",
    },
    "self_attention.causal.off": {
        "en": "Unmasked: the first token, “{first}”, draws on {count} {count:token|tokens}, later "
        "ones included, and {mass} of the head's weight (its {n} {n:row holds|rows hold} {n} in "
        "all) sits above the diagonal. Switch the mask on to change that.",
        "zh": "未遮罩：第一个 token “{first}” 从 {count} 个 token（包括它后面的）取信息，"
        "这个头的权重（{n} 行共 {n}）中有 {mass} 在对角线以上。打开遮罩看看会怎样变化。",
    },
    # --- caveat -----------------------------------------------------------------------------
    "self_attention.caveat.title": {
        "en": "Routing of information, not linguistic truth",
        "zh": "这是信息的路由，不是语言学事实",
    },
    "self_attention.caveat.body": {
        "en": "A weight $\\alpha_{ij}$ says how information flowed inside **one head of one "
        "layer**. "
        "It is not a labelled fact about the sentence: in *Tom loves his dog*, a large "
        "$\\alpha_{\\text{his},\\text{Tom}}$ would not prove that *his* refers to *Tom*, nor "
        "measure cause or importance. Here the caution is even plainer: the toy model's "
        "weights are **random and untrained**, so whichever pair lights up above does so by "
        "chance. Heads of a trained model often line up with relations a linguist would "
        "recognise, but that is something to check, never something a weight tells you by "
        "itself. Switch below to a small model trained on such a relation, and see the "
        "Watch-it-learn page for how its claim is checked.",
        "zh": "权重 $\\alpha_{ij}$ 只描述信息在**某一层的某一个头**里怎样流动，"
        "它不是关于句子的标注事实："
        "比如在 *Tom loves his dog* 里，即使 $\\alpha_{\\text{his},\\text{Tom}}$ 很大，"
        "也不能证明 *his* 指代 *Tom*，更不能当作因果或重要性的度量。"
        "在这里更要小心：玩具模型的权重是**随机初始化、未经训练的**，"
        "上面哪一对格子亮起来纯属偶然。训练好的模型里，一些头确实常与语言学家熟悉的关系吻合，"
        "但那需要验证，而不是权重本身就能告诉你的。"
        "在下面可以切换到一个在这种关系上训练过的小模型；它的结论如何检验，见“看它学会”页面。",
    },
    # --- self vs cross ----------------------------------------------------------------------
    "self_attention.cross.title": {
        "en": "Self-attention vs encoder–decoder attention",
        "zh": "自注意力与编码器–解码器注意力",
    },
    "self_attention.cross.self": {
        "en": "**Self-attention** (this page): queries, keys and values are three projections "
        "of the *same* sequence, so the matrix is square — each position of one sentence "
        "against each position of the same sentence.",
        "zh": "**自注意力**（本页）：查询、键、值是*同一个*序列的三种投影，所以矩阵是方的——"
        "一句话里的每个位置对同一句话里的每个位置。",
    },
    "self_attention.cross.encdec": {
        "en": "**Encoder–decoder attention** (in a translation model): the queries come from the "
        "decoder's sequence, the keys and values from the encoder's output. Two different "
        "sequences, so the matrix is ${n_{\\text{dec}} \\times n_{\\text{enc}}}$ and need not be "
        "square.",
        "zh": "**编码器–解码器注意力**（例如翻译模型）：查询来自解码器这一侧的序列，键和值来自"
        "编码器的输出。两个序列不同，所以矩阵是 ${n_{\\text{dec}} \\times n_{\\text{enc}}}$，"
        "不一定是方的。",
    },
    # --- cost -------------------------------------------------------------------------------
    "self_attention.cost.title": {"en": "The price: n² scores", "zh": "代价：n² 个分数"},
    "self_attention.cost.body": {
        "en": "Every token meets every token, in every head, so the score matrix grows with the "
        "square of the sequence length: double $n$ and there are four times as many scores. "
        "With the feature width $d$ counted too, the attention products cost about "
        "$O(n^2 d)$. This is the price of the short paths; long-context models spend much "
        "effort on cheaper forms of attention because of it.",
        "zh": "每个 token 都要与每个 token 相遇，每个头都如此，所以分数矩阵随序列长度的平方增长："
        "$n$ 翻一倍，分数就变成四倍。把特征维度 $d$ 也算上，注意力的矩阵运算约为 $O(n^2 d)$。"
        "这是换来短路径的代价；正因为如此，长上下文模型花了大量精力研究更便宜的注意力形式。",
    },
    "self_attention.cost.n": {"en": "n (tokens)", "zh": "n（token 数）"},
    "self_attention.cost.per_head": {"en": "scores per head (n²)", "zh": "每个头的分数（n²）"},
    "self_attention.cost.layer": {
        "en": "scores in this layer ({h} heads)",
        "zh": "这一层的分数（{h} 个头）",
    },
    "self_attention.cost.double": {"en": "per head at 2n", "zh": "n 翻倍时每个头"},
    # --- summary ----------------------------------------------------------------------------
    "self_attention.solved": {
        "en": "every token reaches every other token in one step, and the whole n×n table is "
        "a few matrix products computed in parallel.",
        "zh": "每个 token 一步就能到达其他任何 token，整张 n×n 的表只需几次可以并行的矩阵乘法。",
    },
    "self_attention.hurts": {
        "en": "one head gives each token a single distribution of weight — and the table grows "
        "as n². Several heads address the first problem.",
        "zh": "一个头只能给每个 token 一种权重分布——而且这张表随 n² 增长。"
        "多个头可以缓解前一个问题。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "self_attention.tex.from": {"en": "from", "zh": "来自"},
}
