"""Words of the Positions page (prefix ``pos.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "positions.title": {"en": "Positions", "zh": "位置编码"},
    "positions.intro": {
        "en": "Self-attention decides how much token $i$ listens to token $j$ from their "
        "**contents** alone: $q_i \\cdot k_j$ does not know where $i$ and $j$ sit. Left as it "
        "is, the layer has no built-in sense of order — *Tom loves his dog* and *dog his loves "
        "Tom* would give every word the same vector, only listed in another order. So before the "
        "first block the Transformer adds a position vector to each token's embedding:",
        "zh": "自注意力只凭 token 的**内容**来决定 token $i$ 在多大程度上关注 token $j$："
        "$q_i \\cdot k_j$ 并不知道 $i$ 和 $j$ 在句子中的位置。如果什么都不加，这一层对顺序就没有"
        "内在的感知——“Tom loves his dog”和“dog his loves Tom”会让每个词得到同样的向量，"
        "只是排列顺序不同。因此 Transformer 在第一个块之前，把一个位置向量加到每个 token 的"
        "词向量上：",
    },
    "positions.computing": {"en": "Running the toy model…", "zh": "正在运行玩具模型…"},
    "positions.pe.title": {"en": "The sinusoidal encoding", "zh": "正弦位置编码"},
    "positions.pe.body": {
        "en": "The original Transformer does not learn these vectors; it writes them down with "
        "sines and cosines. Column pair $(2i, 2i+1)$ turns at its own speed: the first pair "
        "changes quickly from one position to the next, the last ones barely move across "
        "hundreds of positions. Every position therefore gets its own pattern, like the hands of "
        "a clock with many hands. Each row of the picture below is one position; each column one "
        "of the $d_{\\text{model}}$ dimensions.",
        "zh": "原始 Transformer 并不学习这些向量，而是直接用正弦和余弦写出来。每一对列 "
        "$(2i, 2i+1)$ 以自己的速度旋转：第一对在相邻位置之间变化很快，最后几对在几百个位置内"
        "几乎不动。于是每个位置都有自己独特的模式，就像一只有很多根指针的钟。下图每一行是一个"
        "位置，每一列是 $d_{\\text{model}}$ 个维度之一。",
    },
    "positions.pe.count": {"en": "Positions shown", "zh": "显示的位置数"},
    "positions.axis.pos": {"en": "position", "zh": "位置"},
    "positions.axis.dim": {"en": "dimension", "zh": "维度"},
    "positions.pe.waves": {
        "en": "With d_model = {d_model}, column 0 repeats every {fast} positions and the last "
        "column every {slow} positions.",
        "zh": "当 d_model = {d_model} 时，第 0 列每 {fast} 个位置重复一次，最后一列每 {slow} "
        "个位置才重复一次。",
    },
    "positions.numbers.title": {"en": "The numbers for your sentence", "zh": "你的句子对应的数值"},
    "positions.numbers.body": {
        "en": "The toy model adds these rows to its embeddings: $n = {n}$ tokens (tokens, not "
        "words), $d_{{\\text{{model}}}} = {d_model}$. Row $pos$ depends only on the position, "
        "never on the word that sits there. Rows count positions from 0, as $pos$ does in the "
        'formula: the first token is row "0 · {first}", which other pages number 1. Column $i$ is '
        'dimension $i$ of the vector: sin for the even dimensions (header "0 · sin"), cos for '
        'the odd ones ("1 · cos").',
        "zh": "玩具模型把下面这些行加到词向量上：$n = {n}$ 个 token（数的是 token，不是单词），"
        "$d_{{\\text{{model}}}} = {d_model}$。第 $pos$ 行只取决于位置，与该位置上是哪个词无关。"
        "行号和公式里的 $pos$ 一样从 0 数起：第一个 token 是“0 · {first}”这一行，"
        "其他页面把它编为 1。"
        "第 $i$ 列是向量的第 $i$ 维：偶数维用 sin（列名如“0 · sin”），"
        "奇数维用 cos（如“1 · cos”）。",
    },
    "positions.numbers.more": {
        "en": "First {shown} of {n} positions shown.",
        "zh": "只显示了 {n} 个位置中的前 {shown} 个。",
    },
    "positions.numbers.pick": {"en": "Work out one position", "zh": "选择一个位置来计算"},
    "positions.numbers.check": {
        "en": "The model's own PE matrix holds {value} in that cell.",
        "zh": "模型自己的 PE 矩阵在这个位置上的值是 {value}。",
    },
    "positions.row.embedding": {"en": "embedding E[token]", "zh": "词向量 E[token]"},
    "positions.row.position": {"en": "position PE[pos]", "zh": "位置 PE[pos]"},
    "positions.row.sum": {"en": "input x = E + PE", "zh": "输入 x = E + PE"},
    "positions.shuffle.title": {"en": "Shuffle the tokens", "zh": "打乱 token 的顺序"},
    "positions.shuffle.body": {
        "en": "Reordering the tokens multiplies $X$ by a permutation matrix $P$. Without "
        "positions, every step of the block treats rows alike: the projections and the FFN act "
        "on each row separately, and in attention the reordering of the scores' rows and columns "
        "cancels ($P^{\\mathsf T}P = I$). So the outputs are the **same rows, permuted** — the "
        "layer is *permutation-equivariant*. With positions added, a word at a new place gets a "
        "new input vector, and the outputs really change. Below, the toy model runs your "
        "sentence and a shuffle of it, once with $PE = 0$ and once with the sinusoidal $PE$.",
        "zh": "重新排列 token 相当于用一个置换矩阵 $P$ 左乘 $X$。没有位置信息时，块中每一步对"
        "各行一视同仁：投影和 FFN 逐行计算，而注意力分数的行与列被同时重排后会相互抵消"
        "（$P^{\\mathsf T}P = I$）。因此输出只是**同样的行换了顺序**——这一层是"
        "*置换等变*的。加上位置编码后，换了位置的词得到新的输入向量，输出就真的变了。下面让"
        "玩具模型分别运行你的句子和它的打乱版本，一次令 $PE = 0$，一次使用正弦 $PE$。",
    },
    "positions.shuffle.too_short": {
        "en": "One token has only one order: add a second token to shuffle.",
        "zh": "只有一个 token 时只有一种顺序：再加一个 token 才能打乱。",
    },
    "positions.shuffle.again": {"en": "Shuffle again", "zh": "再打乱一次"},
    "positions.shuffle.orders": {
        "en": "Original: {original}  \nShuffled: {shuffled}",
        "zh": "原句：{original}  \n打乱后：{shuffled}",
    },
    "positions.shuffle.without": {
        "en": "max |out_shuffled − P·out|, no positions",
        "zh": "max |out_打乱后 − P·out|，无位置编码",
    },
    "positions.shuffle.with": {
        "en": "max |out_shuffled − P·out|, with positions",
        "zh": "max |out_打乱后 − P·out|，有位置编码",
    },
    "positions.shuffle.equivariant": {
        "en": "Without positions the largest difference is {off}: rounding error, nothing more. "
        "The model cannot tell the shuffled sentence from the original; it sees the same bag of "
        "tokens and gives each the same output, only listed in another order. With positions the "
        "largest difference is {on}: now the order changes the outputs.",
        "zh": "没有位置编码时，最大差值是 {off}：只是浮点舍入误差。模型分不清打乱的句子和原句，"
        "它看到的是同一袋 token，给每个 token 的输出都不变，只是排列顺序不同。"
        "有了位置编码，最大差值是 {on}：顺序改变了输出。",
    },
    "positions.shuffle.both_rounding": {
        "en": "Both largest differences are within rounding error ({off} without positions, "
        "{on} with them): this shuffle changed no output, with or without positions.",
        "zh": "两个最大差值都在舍入误差之内（无位置编码 {off}，有位置编码 {on}）："
        "这次打乱没有改变任何输出，无论有没有位置编码。",
    },
    "positions.shuffle.not_equivariant": {
        "en": "Without positions the largest difference is {off}, more than rounding error: here "
        "the outputs are not just the original rows in a new order. With positions it is {on}.",
        "zh": "没有位置编码时，最大差值是 {off}，超出了舍入误差：这里的输出并不只是原来的行换了"
        "顺序。有位置编码时，最大差值是 {on}。",
    },
    "positions.shuffle.diff_title": {
        "en": "**With positions:** how far each shuffled token's output moved from the output it "
        "had in the original order.",
        "zh": "**有位置编码时**：每个打乱后的 token 的输出，与它在原顺序中的输出相差多少。",
    },
    "positions.shuffle.row_diff": {"en": "max |difference| in the row", "zh": "该行的最大 |差值|"},
    "positions.shuffle.row": {"en": "token at its new place", "zh": "新位置上的 token"},
    "positions.shuffle.row_label": {
        "en": "{label} (was {source})",
        "zh": "{label}（原 {source}）",
    },
    "positions.shuffle.stayed": {
        "en": "“{token}” kept its place in this shuffle, and its output still moved by {diff}: "
        "the tokens around it moved, so what it attends to changed too.",
        "zh": "“{token}” 在这次打乱中留在了原位，它的输出仍然变了 {diff}：它周围的 token "
        "换了位置，它所关注的内容也随之改变。",
    },
    "positions.shuffle.stayed_same": {
        "en": "“{token}” kept its place in this shuffle, and its output did not change to three "
        "decimals (largest difference {diff}).",
        "zh": "“{token}” 在这次打乱中留在了原位，它的输出在三位小数内没有变化（最大差值 {diff}）。",
    },
    "positions.shuffle.copy_moved": {
        "en": "No token kept its place in this shuffle. “{token}” holds the same word as before, "
        "but it is the copy that stood at “{source}”: it moved, and its output is {diff} away "
        "from the output it had there.",
        "zh": "这次打乱没有让任何 token 留在原位。“{token}” 上的词和原来一样，但它是原来位于"
        "“{source}” 的那一个：它换了位置，它的输出与它在原位置时的输出相差 {diff}。",
    },
    "positions.shuffle.note_none": {
        "en": "No token kept its place in this shuffle; shuffle again for one that leaves a token "
        "where it was, to see whether its output moves too.",
        "zh": "这次打乱没有让任何 token 留在原位；再打乱一次，找一个让某个 token 留在原位的排列，"
        "看看它的输出是否也会改变。",
    },
    "positions.shuffle.failed": {
        "en": "This sentence could not be shuffled token by token; try another one.",
        "zh": "这个句子无法按 token 打乱，请换一个句子试试。",
    },
    "positions.learned.title": {
        "en": "Learned positions: MiniLM",
        "zh": "可学习的位置：MiniLM",
    },
    "positions.learned.body": {
        "en": "Many models learn their position vectors instead, as one more table: "
        "all-MiniLM-L6-v2 has 512 rows of 384 numbers (`embeddings.position_embeddings`), "
        "one per position. That table, not $d_{\\text{model}}$, is why MiniLM stops at 512 "
        "tokens; the sinusoidal formula has no such last row. The maps show the cosine "
        "similarity of every pair of positions: near the diagonal, neighbouring positions look "
        "alike in both; the learned table found that on its own from data. Other schemes exist "
        "too (relative positions, RoPE).",
        "zh": "很多模型改为学习位置向量，即再多一张表：all-MiniLM-L6-v2 有 512 行、每行 384 个数"
        "（`embeddings.position_embeddings`），每个位置一行。MiniLM 最多只能处理 512 个 token，"
        "原因是这张表，而不是 $d_{\\text{model}}$；正弦公式则没有“最后一行”。下面的图显示每两个"
        "位置之间的余弦相似度：在两种方法中，对角线附近相邻的位置都彼此相似；可学习的表是从数据中"
        "自己学到这一点的。此外还有其他方案（相对位置编码、RoPE 等）。",
    },
    "positions.learned.count": {"en": "Positions compared", "zh": "比较的位置数"},
    "positions.learned.sinusoidal": {
        "en": "**Sinusoidal**, d_model = {d_model}",
        "zh": "**正弦编码**，d_model = {d_model}",
    },
    "positions.learned.minilm": {"en": "**MiniLM, learned**", "zh": "**MiniLM，可学习**"},
    "positions.learned.series_sin": {"en": "sinusoidal", "zh": "正弦编码"},
    "positions.learned.series_minilm": {"en": "MiniLM (learned)", "zh": "MiniLM（可学习）"},
    "positions.learned.distance": {"en": "distance |i − j|", "zh": "距离 |i − j|"},
    "positions.learned.mean_cos": {"en": "mean cosine", "zh": "平均余弦相似度"},
    "positions.learned.neighbour": {
        "en": "Neighbours (distance 1): mean cosine {learned} learned, {sin} sinusoidal; at "
        "distance {far} the learned rows are at {learned_far}.",
        "zh": "相邻位置（距离 1）：可学习的平均余弦为 {learned}，正弦编码为 {sin}；在距离 {far} "
        "处，可学习的行之间为 {learned_far}。",
    },
    "positions.learned.numpy": {
        "en": "The cosines are computed with NumPy from the weights as stored.",
        "zh": "余弦相似度由 NumPy 直接根据存储的权重计算。",
    },
    "positions.other": {
        "en": "Adding PE to the embedding is one choice among several: learned tables (BERT, "
        "MiniLM), relative position terms inside attention, and RoPE, which rotates $q$ and $k$ "
        "by their position so that $q_i \\cdot k_j$ depends on $i - j$.",
        "zh": "把 PE 加到词向量上只是几种做法之一：还有可学习的位置表（BERT、MiniLM）、在注意力内部"
        "加入相对位置项，以及 RoPE——它按位置旋转 $q$ 和 $k$，使 $q_i \\cdot k_j$ 取决于 $i - j$。",
    },
    "positions.solved": {
        "en": "Order is back: the same words in another order now give other representations.",
        "zh": "顺序回来了：同样的词换一种顺序，现在会得到不同的表示。",
    },
    "positions.hurts": {
        "en": "Attention only mixes tokens; a Transformer still needs per-token processing and a "
        "way to stack many layers stably — the block.",
        "zh": "注意力只负责混合 token；Transformer 还需要逐 token 的处理，以及稳定堆叠多层的办法"
        "——这就是 Transformer 块。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "positions.tex.position": {"en": "position", "zh": "位置"},
    "positions.tex.shuffled": {"en": "shuffled", "zh": "打乱后"},
}
