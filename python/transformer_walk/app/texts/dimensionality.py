"""Words of the Dimensionality page: (1 − ε)^d, distance concentration, and what they mean for
the width of embeddings."""

MESSAGES: dict[str, dict[str, str]] = {
    "dimensionality.title": {"en": "The curse of dimensionality", "zh": "维度灾难"},
    "dimensionality.intro": {
        "en": "“More dimensions cost more arithmetic” is true but is not the curse. The curse is "
        "that space itself behaves differently: its volume grows so fast with the number of "
        "axes d that any finite amount of data is spread extremely thin, and the geometry we "
        "learned in two or three dimensions stops being a good guide. Two experiments, both "
        "computed below, show how.",
        "zh": "“维度越高，计算越多”没有错，但这不是维度灾难的本意。真正的问题在于空间本身变了样："
        "体积随坐标轴数 d 增长得极快，任何有限的数据放进去都会变得极其稀疏；我们在二维、三维里"
        "养成的几何直觉也不再可靠。下面两个实验都是现场计算的，用来说明这一点。",
    },
    # --- volume -----------------------------------------------------------------------------------
    "dimensionality.volume.title": {
        "en": "1 · Almost all the volume is near the boundary",
        "zh": "1 · 几乎所有体积都挤在边界附近",
    },
    "dimensionality.volume.body": {
        "en": "Take the unit cube $[0,1]^d$ and, inside it, a cube of side $1-\\varepsilon$ "
        "with the same centre (a margin of $\\varepsilon/2$ on each side). Its volume is "
        "$(1-\\varepsilon)^d$, and what is left — the thin layer along the boundary — holds "
        "the rest. For small d the inner cube is almost everything; as d grows its share "
        "falls towards 0, however thin the layer.",
        "zh": "取单位超立方体 $[0,1]^d$，在其中放一个同中心、边长为 $1-\\varepsilon$ 的小立方体"
        "（每一侧留出 $\\varepsilon/2$ 的边距）。它的体积是 $(1-\\varepsilon)^d$，"
        "剩下的部分——贴着边界的那一层薄壳——占据其余的体积。d 很小时，内部立方体几乎就是全部；"
        "随着 d 增大，无论这层壳多薄，内部的份额都会趋向 0。",
    },
    "dimensionality.volume.eps": {"en": "Thickness ε of the boundary layer", "zh": "边界层厚度 ε"},
    "dimensionality.volume.eps_help": {
        "en": "The inner cube has side 1 − ε: a margin of ε/2 on each side.",
        "zh": "内部立方体的边长为 1 − ε：每一侧留出 ε/2 的边距。",
    },
    "dimensionality.volume.half": {
        "en": "From d ≈ **{d_half}** on, the boundary layer holds more than half the volume.",
        "zh": "从 d ≈ **{d_half}** 开始，边界层就占据了超过一半的体积。",
    },
    "dimensionality.volume.col_d": {"en": "d", "zh": "维数 d"},
    "dimensionality.volume.col_inside": {"en": "inside (1 − ε)ᵈ", "zh": "内部 (1 − ε)ᵈ"},
    "dimensionality.volume.col_shell": {
        "en": "near the boundary 1 − (1 − ε)ᵈ",
        "zh": "靠近边界 1 − (1 − ε)ᵈ",
    },
    "dimensionality.volume.col_note": {"en": "for example", "zh": "例如"},
    "dimensionality.volume.note.toy": {"en": "the toy model's d_model", "zh": "玩具模型的 d_model"},
    "dimensionality.volume.note.minilm": {"en": "MiniLM's d_model", "zh": "MiniLM 的 d_model"},
    "dimensionality.volume.note.base": {
        "en": "the original Transformer's d_model",
        "zh": "原始 Transformer 的 d_model",
    },
    "dimensionality.volume.note.vocab": {
        "en": "one-hot over a 50,000-word vocabulary",
        "zh": "50,000 词词表上的 One-Hot",
    },
    "dimensionality.volume.chart_d": {"en": "dimension d (log scale)", "zh": "维数 d（对数坐标）"},
    "dimensionality.volume.chart_share": {"en": "share of the volume", "zh": "体积占比"},
    "dimensionality.volume.chart_part": {"en": "where", "zh": "位置"},
    "dimensionality.volume.inside": {"en": "inner cube", "zh": "内部立方体"},
    "dimensionality.volume.shell": {"en": "boundary layer", "zh": "边界层"},
    # --- distances --------------------------------------------------------------------------------
    "dimensionality.contrast.title": {
        "en": "2 · Distances concentrate: near and far become alike",
        "zh": "2 · 距离集中：近与远变得差不多",
    },
    "dimensionality.contrast.body": {
        "en": "Scatter N random points in the cube $[0,1]^d$. From each point, measure the "
        "Euclidean distance to its nearest and to its farthest neighbour. In the plane the "
        "farthest is many times farther than the nearest. As d grows the two close in on each "
        "other, and the **relative contrast** below tends to 0: every point is almost equally "
        "far from every other. Nearest-neighbour search and clustering by distance lose their "
        "footing — “nearest” hardly means anything.",
        "zh": "在立方体 $[0,1]^d$ 中随机撒 N 个点。从每个点出发，量出它到最近邻和最远邻的欧氏距离。"
        "在平面上，最远的点往往比最近的点远好多倍。随着 d 增大，两者越靠越近，下面定义的"
        "**相对对比度**趋向 0：每个点到其他所有点的距离几乎一样。基于距离的最近邻检索和聚类"
        "因此失去了依据——“最近”几乎不再有意义。",
    },
    "dimensionality.contrast.points": {"en": "Number of random points N", "zh": "随机点的个数 N"},
    "dimensionality.contrast.points_help": {
        "en": "More points: smoother curves, a little more time.",
        "zh": "点越多，曲线越平滑，耗时也稍长。",
    },
    "dimensionality.contrast.seed": {"en": "Random seed", "zh": "随机种子"},
    "dimensionality.contrast.seed_help": {
        "en": "The same seed always draws the same points; change it to see that the trend "
        "does not depend on luck.",
        "zh": "同一个种子总会生成同样的点；换一个种子，可以看到趋势并不取决于运气。",
    },
    "dimensionality.contrast.progress": {
        "en": "d = {d}: {done} of {total} dimensions computed",
        "zh": "d = {d}：已算完 {done}/{total} 个维数",
    },
    "dimensionality.contrast.done": {
        "en": "All {total} dimensions computed.",
        "zh": "全部 {total} 个维数已算完。",
    },
    "dimensionality.contrast.computed": {
        "en": "Computed with NumPy (pairwise distances are not one of the backends' functions) "
        "from {points} points drawn uniformly with seed {seed}.",
        "zh": "用 NumPy 计算（两两距离不属于后端提供的函数），点是用种子 {seed} 均匀抽取的 "
        "{points} 个点。",
    },
    "dimensionality.contrast.metric": {
        "en": "farthest ÷ nearest at d = {d} (median point; = 1 + relative contrast)",
        "zh": "d = {d} 时：最远 ÷ 最近（中位数；= 1 + 相对对比度）",
    },
    "dimensionality.contrast.col_d": {"en": "d", "zh": "维数 d"},
    "dimensionality.contrast.col_median": {
        "en": "relative contrast (median)",
        "zh": "相对对比度（中位数）",
    },
    "dimensionality.contrast.col_min": {"en": "smallest", "zh": "最小"},
    "dimensionality.contrast.col_max": {"en": "largest", "zh": "最大"},
    "dimensionality.contrast.col_distance": {"en": "mean distance", "zh": "平均距离"},
    "dimensionality.contrast.col_spread": {
        "en": "std ÷ mean of distances",
        "zh": "距离的标准差 ÷ 均值",
    },
    "dimensionality.contrast.chart_d": {
        "en": "dimension d (log scale)",
        "zh": "维数 d（对数坐标）",
    },
    "dimensionality.contrast.chart_rc": {
        "en": "relative contrast (log scale)",
        "zh": "相对对比度（对数坐标）",
    },
    "dimensionality.contrast.chart_band": {
        "en": "The line is the median over the N query points; the band spans the smallest to "
        "the largest.",
        "zh": "折线是 N 个查询点的中位数；阴影带覆盖从最小到最大的范围。",
    },
    "dimensionality.hist.title": {
        "en": "The distances themselves, divided by their mean",
        "zh": "距离本身（除以其均值后）",
    },
    "dimensionality.hist.body": {
        "en": "In low dimensions the distances spread widely; in high dimensions they pile up "
        "in a narrow spike around their mean. The spike is what concentration looks like.",
        "zh": "低维时，距离分布得很散；高维时，它们挤成均值附近的一个窄峰。"
        "这个窄峰就是“距离集中”的样子。",
    },
    "dimensionality.hist.chart_x": {"en": "distance ÷ mean distance", "zh": "距离 ÷ 平均距离"},
    "dimensionality.hist.chart_y": {"en": "density", "zh": "密度"},
    "dimensionality.hist.chart_d": {"en": "d", "zh": "维数 d"},
    # --- the sentence -----------------------------------------------------------------------------
    "dimensionality.sentence.title": {
        "en": "Your sentence: one-hot is the extreme case",
        "zh": "你的句子：One-Hot 是最极端的情形",
    },
    "dimensionality.sentence.body": {
        "en": "One-hot vectors show the concentration at its most extreme: any two different "
        "one-hot vectors are exactly $\\sqrt{2}$ apart, so the contrast among them is exactly "
        "0 — the geometry carries no information at all. Here are the distinct tokens of your "
        "sentence, once as one-hot vectors in $\\mathbb{R}^{|V|}$ and once as the toy model's "
        "embeddings in $\\mathbb{R}^{d_{\\text{model}}}$:",
        "zh": "One-Hot 向量把距离集中推到了极致：任意两个不同的 One-Hot 向量之间的距离都恰好是 "
        "$\\sqrt{2}$，所以它们之间的对比度恰好为 0——这种几何不携带任何信息。下面是你的句子里"
        "不同的 token，一次写成 $\\mathbb{R}^{|V|}$ 中的 One-Hot 向量，一次写成玩具模型在 "
        "$\\mathbb{R}^{d_{\\text{model}}}$ 中的词向量：",
    },
    "dimensionality.sentence.col_space": {"en": "representation", "zh": "表示方式"},
    "dimensionality.sentence.col_dims": {"en": "dimensions", "zh": "维数"},
    "dimensionality.sentence.col_min": {"en": "smallest distance", "zh": "最小距离"},
    "dimensionality.sentence.col_max": {"en": "largest distance", "zh": "最大距离"},
    "dimensionality.sentence.col_contrast": {
        "en": "(max − min) ÷ min",
        "zh": "(最大 − 最小) ÷ 最小",
    },
    "dimensionality.sentence.one_hot": {"en": "one-hot", "zh": "One-Hot 向量"},
    "dimensionality.sentence.embedding": {"en": "toy embedding", "zh": "玩具模型词向量"},
    "dimensionality.sentence.few": {
        "en": "Your sentence has fewer than three distinct tokens; add a few words to compare "
        "distances.",
        "zh": "你的句子里不同的 token 少于三个；多加几个词，才能比较距离。",
    },
    "dimensionality.sentence.note": {
        "en": "Computed on **{backend}** ({m} distinct tokens). The toy's embedding rows are "
        "random, not learned, so their distances carry no meaning yet either — but unlike "
        "one-hot they *can* differ, and training is what puts meaning into those differences.",
        "zh": "由 **{backend}** 计算（{m} 个不同的"
        " token）。玩具模型的词向量是随机的，不是学出来的，"
        "所以它们之间的距离目前同样没有含义——但和 One-Hot 不同，它们的距离*可以*各不相同，"
        "而训练正是把含义写进这些差异里。",
    },
    # --- meaning for embeddings -------------------------------------------------------------------
    "dimensionality.meaning.title": {
        "en": "What this means for embeddings: why d is in the hundreds, not 50,000",
        "zh": "这对词向量意味着什么：为什么 d 是几百，而不是 50,000",
    },
    "dimensionality.meaning.body": {
        "en": "- **|V| axes are wasted on one-hot.** Giving each of 50,000 words its own axis "
        "buys 50,000 dimensions and no geometry: every pair is √2 apart, which is concentration "
        "taken to the limit.\n"
        "- **Fewer, shared axes.** An embedding gives every word d numbers, with d in the "
        "hundreds (word2vec often used 300, MiniLM uses 384, the original Transformer 512). "
        "Every axis is shared by all words, so related words can point in similar directions "
        "and distances can mean something.\n"
        "- **Parameters and data.** The table E has |V| × d entries: 50,000 × 512 is already "
        "25.6 million numbers to learn from finite text. Larger d means more to learn and "
        "sparser coverage by the data.\n"
        "- **Room enough.** A few hundred dimensions already hold a great many almost "
        "perpendicular directions, enough to keep thousands of words apart while related ones "
        "share directions.\n"
        "- **Learned points are not random points.** The experiment above uses uniform random "
        "points, the worst case. Trained embeddings lie on structured, much lower-dimensional "
        "patterns, so distances between them stay informative — which is why cosine similarity "
        "works on them. The concentration result is a warning about high dimensions, not a "
        "verdict on embeddings.\n"
        "- **d is a choice.** d = 384 or 512 are hyper-parameters picked by experiment to "
        "balance quality against cost. d_model = 512 is the width of each vector, not a limit "
        "on how many tokens a model can read.",
        "zh": "- **One-Hot 把 |V| 个坐标轴白白浪费了。** 给 50,000 个词每个词一根独立的坐标轴，"
        "换来的是 50,000 维却毫无几何结构：任意两个词的距离都是 √2，这正是距离集中的极限情形。\n"
        "- **更少的、共享的坐标轴。** 词向量给每个词 d 个数，d 一般是几百"
        "（word2vec 常用 300，MiniLM 用 384，原始 Transformer 用 512）。每根坐标轴由所有词共享，"
        "于是相关的词可以指向相近的方向，距离也就有了意义。\n"
        "- **参数与数据。** 词向量表 E 有 |V| × d 个元素：50,000 × 512 就已经是 2,560 万个"
        "需要从有限文本中学习的数。d 越大，要学的越多，数据覆盖得也越稀疏。\n"
        "- **空间已经足够。** 几百维的空间里已经能容纳极多几乎互相垂直的方向，足以把成千上万个词"
        "彼此分开，同时让相关的词共享方向。\n"
        "- **学出来的点不是随机点。** 上面的实验用的是均匀随机点，是最坏的情形。训练好的词向量"
        "分布在有结构的、维度低得多的模式上，所以它们之间的距离依然有信息量——这也是余弦相似度"
        "在词向量上管用的原因。距离集中是对高维空间的警示，而不是对词向量的判决。\n"
        "- **d 是一个选择。** d = 384 或 512 是通过实验挑出来的超参数，用来在效果和代价之间取得"
        "平衡。d_model = 512 是每个向量的宽度，并不限制模型能读入多少个 token。",
    },
    "dimensionality.methods": {
        "en": "Ways out of high-dimensional sparse text include PCA, SVD (as in latent semantic "
        "analysis), matrix factorisation, word2vec, GloVe and neural embeddings. But an "
        "embedding is more than a mathematical compression of one-hot vectors: it is a space "
        "**learned for an objective** — word2vec learns by predicting a word's context, GloVe "
        "from global counts of which words occur together.",
        "zh": "应对高维稀疏文本的办法有 PCA、SVD（如潜在语义分析 LSA）、矩阵分解、word2vec、GloVe "
        "以及神经网络词向量。不过，词向量不只是对 One-Hot 向量做数学上的压缩：它是一个"
        "**为某个目标学出来的**空间——word2vec 通过预测一个词的上下文来学习，GloVe 则利用"
        "全局的词共现统计来学习。",
    },
    "dimensionality.solved": {
        "en": "we know why the vectors should be short and dense: d in the hundreds, with every "
        "axis shared by all words.",
        "zh": "我们明白了向量为什么应该短而稠密：d 取几百，每根坐标轴由所有词共享。",
    },
    "dimensionality.hurts": {
        "en": "one vector per word, fixed before the sentence is read: *bank* is the same "
        "vector by a river and at a bank counter.",
        "zh": "每个词只有一个向量，在读句子之前就已经固定：*bank* 不管是在河边还是在银行柜台，"
        "都是同一个向量。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "dimensionality.tex.boundary": {"en": "near the boundary:", "zh": "靠近边界的部分："},
}
