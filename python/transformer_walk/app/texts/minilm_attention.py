"""Words of the MiniLM attention page (prefix ``mla.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "mla.title": {"en": "MiniLM attention", "zh": "MiniLM 的注意力"},
    "mla.intro": {
        "en": "Everything so far ran on a toy with random weights. Here is a **trained** "
        "Transformer encoder, all-MiniLM-L6-v2: 6 layers, each with $h = 12$ heads of width "
        "$d_k = 32$ ($d_{\\text{model}} = 384$), computed by this project's own code. It reads "
        "WordPiece tokens, not words, and adds a [CLS] at the start and a [SEP] at the end, so "
        "$n$ counts those too. Each head of each layer has its own $W^Q, W^K, W^V$, so each "
        "produces its own $n \\times n$ matrix of weights — 72 of them for one sentence.",
        "zh": "到目前为止，一切都跑在权重随机的玩具模型上。这里换成一个**训练好的** Transformer "
        "编码器 all-MiniLM-L6-v2：6 层，每层 $h = 12$ 个头，每个头宽 $d_k = 32$"
        "（$d_{\\text{model}} = 384$），由本项目自己的代码计算。它读的是 WordPiece token，"
        "不是单词，并在开头加一个 [CLS]、在结尾加一个 [SEP]，所以 $n$ 也把它们算在内。"
        "每一层的每个头都有自己的 $W^Q, W^K, W^V$，各自给出一个 $n \\times n$ 的权重矩阵——"
        "一句话就有 72 个。",
    },
    "mla.metric.n": {
        "en": "n (tokens, with [CLS] and [SEP])",
        "zh": "n（token 数，含 [CLS] 和 [SEP]）",
    },
    "mla.metric.layers": {"en": "layers", "zh": "层数"},
    "mla.tokens": {"en": "Tokens: {tokens}", "zh": "token：{tokens}"},
    "mla.hide": {
        "en": "Hide [CLS] and [SEP] (renormalise the rest)",
        "zh": "隐藏 [CLS] 和 [SEP]（其余权重重新归一化）",
    },
    "mla.hide_help": {
        "en": "Many heads park most of their weight on [CLS] or [SEP] when they have nothing "
        "better to do, which washes out every other cell. Hiding them drops their rows and "
        "columns and rescales each remaining row so that it sums to 1 again.",
        "zh": "很多头在“无事可做”时会把大部分权重停放在 [CLS] 或 [SEP] 上，"
        "其他格子的颜色因此都变得很淡。隐藏它们会去掉对应的行和列，"
        "再把剩下的每一行按比例放大，让它重新加起来等于 1。",
    },
    "mla.hidden_note": {
        "en": "[CLS] and [SEP] are hidden. On average they took {share} of a token's weight (up "
        "to {top} in one head); each row below is the model's own weights for the other "
        "tokens, divided by what was left for them, so it sums to 1 again. These are not "
        "the weights the model used — they show how it split the rest.",
        "zh": "[CLS] 和 [SEP] 已隐藏。平均来说，它们拿走了一个 token 的 {share} 权重"
        "（在某个头里最多达 {top}）。下面每一行是模型给其余 token 的原始权重，"
        "再除以它们所剩的总和，所以重新加起来等于 1。这不是模型实际使用的权重——"
        "它展示的是模型如何分配剩下的部分。",
    },
    "mla.window_help": {
        "en": "The matrices show {shown} tokens per side at a time.",
        "zh": "矩阵每边一次显示 {shown} 个 token。",
    },
    "mla.window_note": {
        "en": "Long input: the matrices show tokens {first}–{last} of {n} (queries and keys). "
        "A row of this window does not sum to 1: the rest of its weight went to tokens "
        "outside it.",
        "zh": "输入较长：矩阵只显示 {n} 个 token 中的第 {first}–{last} 个（查询和键都是）。"
        "窗口中的一行加起来不等于 1：其余的权重给了窗口外的 token。",
    },
    "mla.grid.title": {"en": "All 72 heads at a glance", "zh": "一眼看遍 72 个头"},
    "mla.grid.body": {
        "en": "One small matrix per head: layers top to bottom, heads left to right. In each, "
        "row $i$ is query token $i$ and column $j$ is key token $j$; the darker the cell, "
        "the more of row $i$'s weight goes to token $j$. Hover for the tokens. Look for "
        "patterns that repeat: heads that look at the previous or the next token, heads that "
        "look at themselves, heads that park their weight on one special token. The framed "
        "head is the one enlarged below.",
        "zh": "每个头一个小矩阵：层从上到下，头从左到右。每个矩阵里，第 $i$ 行是查询 token "
        "$i$，第 $j$ 列是键 token $j$；格子越深，第 $i$ 行分给 token $j$ 的权重越多。"
        "把鼠标悬停在格子上可以看到 token。找一找反复出现的模式：看前一个或后一个 token "
        "的头、看自己的头、把权重停放在某个特殊 token 上的头。加了边框的头会在下面放大显示。",
    },
    "mla.grid.sinks": {
        "en": "For this sentence, {cls} of the {heads} heads give [CLS] more than half of their "
        "weight (averaged over the queries), and {sep} give [SEP] more than half.",
        "zh": "对这句话，{heads} 个头中有 {cls} 个把超过一半的权重（按查询取平均）给了 [CLS]，"
        "有 {sep} 个给了 [SEP]。",
    },
    "mla.axis.layer": {"en": "layer", "zh": "层"},
    "mla.axis.head": {"en": "head", "zh": "头"},
    "mla.axis.query": {"en": "query token i", "zh": "查询 token i"},
    "mla.axis.key": {"en": "key token j", "zh": "键 token j"},
    "mla.axis.weight": {"en": "weight aᵢⱼ", "zh": "权重 aᵢⱼ"},
    "mla.one.title": {"en": "One head, enlarged", "zh": "放大一个头"},
    "mla.one.rows": {
        "en": "Layer {layer}, head {head}: every row sums to 1 (smallest row sum {low}, largest "
        "{high}), because each row is one softmax.",
        "zh": "第 {layer} 层第 {head} 个头：每一行都加起来等于 1（最小行和 {low}，最大行和 "
        "{high}），因为每一行都是一次 softmax。",
    },
    "mla.view.title": {"en": "Head view: one token's lines", "zh": "头视图：一个 token 的连线"},
    "mla.view.body": {
        "en": "The same head as above, one query at a time: the token on the left is joined to "
        "every token on the right, and the thicker and darker a line, the more weight that "
        "key gets. This is one row of the matrix above, drawn as lines.",
        "zh": "还是上面那个头，这次一次只看一个查询：左边的 token 连向右边的每一个 token，"
        "线越粗、颜色越深，那个键分到的权重就越多。这其实就是上面矩阵中的一行，"
        "只是画成了连线。",
    },
    "mla.view.query": {"en": "Query token", "zh": "查询 token"},
    "mla.view.top": {
        "en": "Layer {layer}, head {head}: “{token}” looks most at",
        "zh": "第 {layer} 层第 {head} 个头：“{token}” 最关注",
    },
    "mla.rank.title": {
        "en": "Which heads link one token to another?",
        "zh": "哪些头把一个 token 连向另一个？",
    },
    "mla.rank.body": {
        "en": "In *Tom loves his dog*, *his* takes part in at least two relations: it refers to "
        "Tom (who owns the dog), and it belongs to *dog* (it tells whose dog). One head "
        "has one softmax per token, so it cannot put most of its weight on both; with 72 "
        "heads, different heads can cover different relations, and $W^O$ mixes what they "
        "found into one vector per token. Below, all 72 heads are ranked by the weight the "
        "query gives each target — found automatically, for any query and target you pick "
        "from your sentence.",
        "zh": "在 *Tom loves his dog* 里，*his* 至少参与两种关系：它指代 Tom（狗的主人），"
        "同时它修饰 *dog*（说明是谁的狗）。一个头对每个 token 只有一次 softmax，"
        "没法同时把大部分权重放在两者上；有了 72 个头，不同的头就可以负责不同的关系，"
        "再由 $W^O$ 把它们的发现混合成每个 token 的一个向量。"
        "下面按查询分给每个目标的权重，把全部 72 个头排序——"
        "这是自动找出来的，你可以从自己的句子里任选查询和目标。",
    },
    "mla.rank.query": {"en": "Query token", "zh": "查询 token"},
    "mla.rank.target_a": {"en": "First target", "zh": "第一个目标"},
    "mla.rank.target_b": {"en": "Second target", "zh": "第二个目标"},
    "mla.rank.pair": {
        "en": "“{query}” → “{target}”",
        "zh": "“{query}” → “{target}”（查询 → 目标）",
    },
    "mla.rank.best": {
        "en": "Strongest head for “{query}” → “{target}”",
        "zh": "“{query}” → “{target}” 最强的头",
    },
    "mla.rank.best_value": {
        "en": "layer {layer}, head {head}: {weight}",
        "zh": "第 {layer} 层第 {head} 个头：{weight}",
    },
    "mla.rank.col.rank": {"en": "rank", "zh": "名次"},
    "mla.rank.col.layer": {"en": "layer", "zh": "层"},
    "mla.rank.col.head": {"en": "head", "zh": "头"},
    "mla.rank.col.weight": {"en": "weight to the target", "zh": "给目标的权重"},
    "mla.rank.col.top": {"en": "the row's largest key", "zh": "该行权重最大的键"},
    "mla.rank.baseline": {
        "en": "For scale: a row spread evenly over its {m} keys would give each {uniform}. The "
        "heat maps show the query's whole row in each top head.",
        "zh": "作为参照：如果一行把权重平均分给 {m} 个键，每个键得到 {uniform}。"
        "热图展示的是查询在每个排名靠前的头里的整行权重。",
    },
    "mla.caveat": {
        "en": "Attention weights are not linguistic truth. They are intermediate numbers the "
        "model computes; a head with a large weight from *his* to *tom* is a pattern worth "
        "noticing, not proof that the model has resolved the reference, and a small weight "
        "does not prove the information did not flow (it can travel through other heads, "
        "layers and the residual path). Nor is a weight a measure of importance, cause or "
        "syntax. What makes any of this meaningful is training — the learned $W^Q$ and $W^K$ "
        "— not the dot product itself.",
        "zh": "注意力权重不是语言学上的真相。它们是模型算出来的中间数值；某个头里 *his* 给 "
        "*tom* 的权重很大，是一个值得注意的模式，但并不能证明模型已经解决了指代问题；"
        "权重小也不能证明信息没有流过去（它可以经由别的头、别的层和残差通路传递）。"
        "权重同样不是重要性、因果或句法的度量。让这一切有意义的是训练——学出来的 "
        "$W^Q$ 和 $W^K$——而不是点积本身。",
    },
    "mla.solved": {
        "en": "a trained model's attention for your own sentence, all 6 × 12 heads, computed "
        "by our own code — and, for any query and target you pick, the heads ranked by the "
        "weight they give it, beside what an even spread would give.",
        "zh": "看到了一个训练好的模型对你自己句子的注意力：全部 6 × 12 个头，由我们自己的代码"
        "计算；对你挑选的任意查询和目标，所有头按给目标的权重排了名，旁边是平均分配时的权重作参照。",
    },
    "mla.hurts": {
        "en": "weights are only where information is read from; what each token becomes is in "
        "its hidden states — the next page follows them layer by layer.",
        "zh": "权重只说明信息从哪里读取；每个 token 最终变成了什么，要看它的隐藏状态——"
        "下一页会逐层跟踪它们。",
    },
}
