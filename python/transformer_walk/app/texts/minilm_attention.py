"""Words of the MiniLM attention page (prefix ``mla.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "minilm_attention.title": {"en": "MiniLM attention", "zh": "MiniLM 的注意力"},
    "minilm_attention.intro": {
        "en": "Everything so far ran on a toy with random weights. Here is a **trained** "
        "Transformer encoder, all-MiniLM-L6-v2: 6 layers, each with $h = 12$ heads of width "
        "$d_k = 32$ ($d_{\\text{model}} = 384$), computed by this project's own code. It reads "
        "WordPiece tokens, not words, and adds a [CLS] at the start and a [SEP] at the end, so "
        "$n$ counts those too. Each head of each layer has its own $W^Q, W^K, W^V$, so each "
        "produces its own ${n \\times n}$ matrix of weights — 72 of them for one sentence.",
        "zh": "到目前为止，一切都跑在权重随机的玩具模型上。这里换成一个**训练好的** Transformer "
        "编码器 all-MiniLM-L6-v2：6 层，每层 $h = 12$ 个头，每个头宽 $d_k = 32$"
        "（$d_{\\text{model}} = 384$），由本项目自己的代码计算。它读的是 WordPiece token，"
        "不是单词，并在开头加一个 [CLS]、在结尾加一个 [SEP]，所以 $n$ 也把它们算在内。"
        "每一层的每个头都有自己的 $W^Q, W^K, W^V$，各自给出一个 ${n \\times n}$ 的权重矩阵——"
        "一句话就有 72 个。",
    },
    "minilm_attention.metric.n": {
        "en": "n (tokens, with [CLS] and [SEP])",
        "zh": "n（token 数，含 [CLS] 和 [SEP]）",
    },
    "minilm_attention.metric.layers": {"en": "layers", "zh": "层数"},
    "minilm_attention.tokens": {"en": "Tokens: {tokens}", "zh": "token：{tokens}"},
    "minilm_attention.hide": {
        "en": "Hide [CLS] and [SEP] (renormalise the rest)",
        "zh": "隐藏 [CLS] 和 [SEP]（其余权重重新归一化）",
    },
    "minilm_attention.hide_help": {
        "en": "Many heads park most of their weight on [CLS] or [SEP] when they have nothing "
        "better to do, which washes out every other cell. Hiding them drops their rows and "
        "columns and rescales each remaining row so that it sums to 1 again.",
        "zh": "很多头在“无事可做”时会把大部分权重停放在 [CLS] 或 [SEP] 上，"
        "其他格子的颜色因此都变得很淡。隐藏它们会去掉对应的行和列，"
        "再把剩下的每一行按比例放大，让它重新加起来等于 1。",
    },
    "minilm_attention.hidden_note": {
        "en": "[CLS] and [SEP] are hidden. On average they took {share} of a token's weight (up "
        "to {top} in one head); each row below is the model's own weights for the other "
        "tokens, divided by what was left for them, so it sums to 1 again. These are not "
        "the weights the model used — they show how it split the rest.",
        "zh": "[CLS] 和 [SEP] 已隐藏。平均来说，它们拿走了一个 token 的 {share} 权重"
        "（在某个头里最多达 {top}）。下面每一行是模型给其余 token 的原始权重，"
        "再除以它们所剩的总和，所以重新加起来等于 1。这不是模型实际使用的权重——"
        "它展示的是模型如何分配剩下的部分。",
    },
    "minilm_attention.window_help": {
        "en": "The matrices show {shown} tokens per side at a time.",
        "zh": "矩阵每边一次显示 {shown} 个 token。",
    },
    "minilm_attention.window_note": {
        "en": "Long input: the matrices show tokens {first}–{last} of {n} (queries and keys). "
        "A row of this window does not sum to 1: the rest of its weight went to tokens "
        "outside it.",
        "zh": "输入较长：矩阵只显示 {n} 个 token 中的第 {first}–{last} 个（查询和键都是）。"
        "窗口中的一行加起来不等于 1：其余的权重给了窗口外的 token。",
    },
    "minilm_attention.grid.title": {"en": "All 72 heads at a glance", "zh": "一眼看遍 72 个头"},
    "minilm_attention.grid.body": {
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
    "minilm_attention.grid.sinks": {
        "en": "For this sentence, {cls} of the {heads} heads give [CLS] more than half of their "
        "weight (averaged over the queries), and {sep} give [SEP] more than half.",
        "zh": "对这句话，{heads} 个头中有 {cls} 个把超过一半的权重（按查询取平均）给了 [CLS]，"
        "有 {sep} 个给了 [SEP]。",
    },
    "minilm_attention.axis.layer": {"en": "layer", "zh": "层"},
    "minilm_attention.axis.head": {"en": "head", "zh": "头"},
    "minilm_attention.axis.query": {"en": "query token i", "zh": "查询 token i"},
    "minilm_attention.axis.key": {"en": "key token j", "zh": "键 token j"},
    "minilm_attention.axis.weight": {"en": "weight αᵢⱼ", "zh": "权重 αᵢⱼ"},
    "minilm_attention.one.title": {"en": "One head, enlarged", "zh": "放大一个头"},
    "minilm_attention.one.rows": {
        "en": "Layer {layer}, head {head}: summed over all {n} keys, every row gives 1 (smallest "
        "row sum {low}, largest {high}), because each row is one softmax.",
        "zh": "第 {layer} 层第 {head} 个头：对全部 {n} 个键求和，每一行都等于 1（最小行和 {low}，"
        "最大行和 {high}），因为每一行都是一次 softmax。",
    },
    "minilm_attention.one.rows_hidden": {
        "en": "Layer {layer}, head {head}: summed over all {n} kept keys, every row gives 1 again "
        "(smallest row sum {low}, largest {high}), because each row was renormalised after "
        "[CLS] and [SEP] were dropped.",
        "zh": "第 {layer} 层第 {head} 个头：对保留下来的全部 {n} 个键求和，每一行又等于 1"
        "（最小行和 {low}，最大行和 {high}），因为去掉 [CLS] 和 [SEP] 之后每一行都重新归一化了。",
    },
    "minilm_attention.view.title": {
        "en": "Head view: one token's lines",
        "zh": "头视图：一个 token 的连线",
    },
    "minilm_attention.view.body": {
        "en": "The same head as above, one query at a time: the token on the left is joined to "
        "every token on the right, and the thicker and darker a line, the more weight that "
        "key gets. This is one row of the matrix above, drawn as lines.",
        "zh": "还是上面那个头，这次一次只看一个查询：左边的 token 连向右边的每一个 token，"
        "线越粗、颜色越深，那个键分到的权重就越多。这其实就是上面矩阵中的一行，"
        "只是画成了连线。",
    },
    "minilm_attention.view.query": {"en": "Query token", "zh": "查询 token"},
    "minilm_attention.view.top": {
        "en": "Layer {layer}, head {head}: largest weight from “{token}”",
        "zh": "第 {layer} 层第 {head} 个头：“{token}” 给出的最大权重",
    },
    "minilm_attention.rank.title": {
        "en": "Which heads link one token to another?",
        "zh": "哪些头把一个 token 连向另一个？",
    },
    "minilm_attention.rank.body": {
        "en": "In *Tom loves his dog*, *his* takes part in at least two relations: it refers to "
        "Tom (who owns the dog), and it belongs to *dog* (it tells whose dog). One head "
        "has one softmax per token, so it cannot put most of its weight on both; with 72 "
        "heads, different heads can cover different relations, and $W^O$ mixes what they "
        "found into one vector per token. Below, all 72 heads are ranked by the weight the "
        "query gives each target — found automatically, for any query and target you pick "
        "from your sentence — and each weight is held against what position alone would "
        "give it; below, one head is tried on other sentences with the same relation.",
        "zh": "在 *Tom loves his dog* 里，*his* 至少参与两种关系：它指代 Tom（狗的主人），"
        "同时它修饰 *dog*（说明是谁的狗）。一个头对每个 token 只有一次 softmax，"
        "没法同时把大部分权重放在两者上；有了 72 个头，不同的头就可以负责不同的关系，"
        "再由 $W^O$ 把它们的发现混合成每个 token 的一个向量。"
        "下面按查询分给每个目标的权重，把全部 72 个头排序——"
        "这是自动找出来的，你可以从自己的句子里任选查询和目标；每个权重都和仅凭位置能得到的"
        "值作对比，再往下还会把一个头放到具有同一种关系的别的句子上检验。",
    },
    "minilm_attention.rank.query": {"en": "Query token", "zh": "查询 token"},
    "minilm_attention.rank.target_a": {"en": "First target", "zh": "第一个目标"},
    "minilm_attention.rank.target_b": {"en": "Second target", "zh": "第二个目标"},
    "minilm_attention.rank.pair": {
        "en": "“{query}” → “{target}”",
        "zh": "“{query}” → “{target}”（查询 → 目标）",
    },
    "minilm_attention.rank.best": {
        "en": "Strongest head for “{query}” → “{target}”",
        "zh": "“{query}” → “{target}” 最强的头",
    },
    "minilm_attention.rank.best_value": {
        "en": "layer {layer}, head {head}: {weight}",
        "zh": "第 {layer} 层第 {head} 个头：{weight}",
    },
    "minilm_attention.rank.defaults_attended": {
        "en": "Not among the other tokens of your sentence: {missing}. The {count} "
        "{count:picker|pickers} without {count:its|their} word {count:starts|start} on {picked}: "
        "the {count:token|tokens} “{query}” gives the most weight, averaged over all {heads} "
        "heads (the model's own weights; [CLS], [SEP] and [UNK] left out).",
        "zh": "你的句子里除查询之外没有 {missing}，所以对应的 {count} 个选择框从 {picked} "
        "开始：这是“{query}”在全部 {heads} 个头里平均分到权重最多的 token"
        "（用模型自己的权重，不算 [CLS]、[SEP] 和 [UNK]）。",
    },
    "minilm_attention.rank.col.rank": {"en": "rank", "zh": "名次"},
    "minilm_attention.rank.col.head": {"en": "head", "zh": "头"},
    "minilm_attention.rank.col.weight": {"en": "weight to the target", "zh": "给目标的权重"},
    "minilm_attention.rank.col.predicted": {
        "en": "position alone predicts",
        "zh": "仅凭位置的预测",
    },
    "minilm_attention.rank.col.verdict": {"en": "verdict", "zh": "结论"},
    "minilm_attention.rank.col.top": {"en": "the row's largest key", "zh": "该行权重最大的键"},
    "minilm_attention.verdict.previous": {"en": "previous-token head", "zh": "看前一个 token 的头"},
    "minilm_attention.verdict.next": {"en": "next-token head", "zh": "看后一个 token 的头"},
    "minilm_attention.verdict.same": {"en": "looks at itself", "zh": "看自己"},
    "minilm_attention.verdict.first_word": {"en": "looks at the first word", "zh": "看第一个词"},
    "minilm_attention.verdict.first": {"en": "parks on the first key", "zh": "停放在第一个键上"},
    "minilm_attention.verdict.last": {"en": "parks on the last key", "zh": "停放在最后一个键上"},
    "minilm_attention.verdict.above": {"en": "above: over {ratio}×", "zh": "高于：超过 {ratio} 倍"},
    "minilm_attention.verdict.not_above": {"en": "not {ratio}× above", "zh": "未超过 {ratio} 倍"},
    "minilm_attention.place.first": {"en": "the first key", "zh": "第一个键"},
    "minilm_attention.place.last": {"en": "the last key", "zh": "最后一个键"},
    "minilm_attention.place.same": {"en": "itself", "zh": "自己"},
    "minilm_attention.place.back": {
        "en": "the key {k} {k:place|places} back",
        "zh": "往前第 {k} 个键",
    },
    "minilm_attention.place.ahead": {
        "en": "the key {k} {k:place|places} ahead",
        "zh": "往后第 {k} 个键",
    },
    "minilm_attention.basis.mean": {
        "en": "this head's mean weight from the {pairs} other {pairs:word|words} of the sentence "
        "to {place}",
        "zh": "这个头里句中其余 {pairs} 个词给{place}的平均权重",
    },
    "minilm_attention.basis.even": {
        "en": "no other word of the sentence has {place}, so an even share",
        "zh": "句中没有别的词有{place}，所以取平均分配的份额",
    },
    "minilm_attention.rank.says.above": {
        "en": "**{head}** gives “{target}” {weight} of “{query}”'s weight. Position alone "
        "predicts {predicted}: {basis}. {weight} is more than {ratio} times that and more than "
        "an even share ({uniform}), so it is **above** what position alone predicts.",
        "zh": "**{head}** 把“{query}”的 {weight} 权重给了“{target}”。仅凭位置预测的是 "
        "{predicted}：{basis}。{weight} 超过它的 {ratio} 倍，也超过平均分配的份额（{uniform}），"
        "所以**高于**仅凭位置的预测。",
    },
    "minilm_attention.rank.says.not_above": {
        "en": "**{head}** gives “{target}” {weight} of “{query}”'s weight. Position alone "
        "predicts {predicted}: {basis}. To count as above, the weight would have to exceed "
        "{ratio} times that and an even share ({uniform}); it does not, so it is **not above** "
        "what position alone predicts.",
        "zh": "**{head}** 把“{query}”的 {weight} 权重给了“{target}”。仅凭位置预测的是 "
        "{predicted}：{basis}。要算高于，需要超过它的 {ratio} 倍并超过平均分配的份额"
        "（{uniform}），所以**不高于**仅凭位置的预测。",
    },
    "minilm_attention.rank.says.previous": {
        "en": "**{head}** is a previous-token head: in this sentence a word gives the token just "
        "before it {share} of its weight on average, and “{target}” is just before “{query}”. "
        "Its {weight} is what position alone predicts.",
        "zh": "**{head}** 是一个看前一个 token 的头：在这句话里，一个词平均把 {share} 的权重给"
        "紧挨在它前面的 token，而“{target}”正好在“{query}”前面。它的 {weight} 正是仅凭位置"
        "就能预测的。",
    },
    "minilm_attention.rank.says.next": {
        "en": "**{head}** is a next-token head: in this sentence a word gives the token just "
        "after it {share} of its weight on average, and “{target}” is just after “{query}”. "
        "Its {weight} is what position alone predicts.",
        "zh": "**{head}** 是一个看后一个 token 的头：在这句话里，一个词平均把 {share} 的权重给"
        "紧跟在它后面的 token，而“{target}”正好在“{query}”后面。它的 {weight} 正是仅凭位置"
        "就能预测的。",
    },
    "minilm_attention.rank.says.first_word": {
        "en": "**{head}** looks at the sentence's first word: in this sentence the other words "
        "give it {share} of their weight on average, and “{target}” is that word. Its {weight} "
        "is what position alone predicts.",
        "zh": "**{head}** 看的是句子的第一个词：在这句话里，其他词平均把 {share} 的权重给它，"
        "而“{target}”正是这个词。它的 {weight} 正是仅凭位置就能预测的。",
    },
    "minilm_attention.rank.says.same": {
        "en": "**{head}** looks at the token itself: in this sentence a word gives itself "
        "{share} of its weight on average, and the target is the query. Its {weight} is what "
        "position alone predicts.",
        "zh": "**{head}** 看的是 token 自己：在这句话里，一个词平均把 {share} 的权重给自己，"
        "而目标就是查询本身。它的 {weight} 正是仅凭位置就能预测的。",
    },
    "minilm_attention.rank.says.first": {
        "en": "**{head}** parks on the first key: in this sentence a word gives it {share} of "
        "its weight on average, and “{target}” is that key. Its {weight} is what position alone "
        "predicts.",
        "zh": "**{head}** 把权重停放在第一个键上：在这句话里，一个词平均把 {share} 的权重给它，"
        "而“{target}”正是这个键。它的 {weight} 正是仅凭位置就能预测的。",
    },
    "minilm_attention.rank.says.last": {
        "en": "**{head}** parks on the last key: in this sentence a word gives it {share} of "
        "its weight on average, and “{target}” is that key. Its {weight} is what position alone "
        "predicts.",
        "zh": "**{head}** 把权重停放在最后一个键上：在这句话里，一个词平均把 {share} 的权重给它，"
        "而“{target}”正是这个键。它的 {weight} 正是仅凭位置就能预测的。",
    },
    "minilm_attention.rank.count": {
        "en": "Of all {heads} heads, {above} {above:gives|give} “{target}” more weight from "
        "“{query}” than position alone predicts, in {patterns} a position pattern explains the "
        "weight, and {half} {half:gives|give} it more than half of the row.",
        "zh": "全部 {heads} 个头中，有 {above} 个从“{query}”给“{target}”的权重高于仅凭位置的预测，"
        "有 {patterns} 个的权重可以用位置模式解释，有 {half} 个给它的权重超过该行的一半。",
    },
    "minilm_attention.rank.baseline": {
        "en": "For scale: a row spread evenly over its {m} keys would give each {uniform}.",
        "zh": "作为参照：如果一行把权重平均分给 {m} 个键，每个键得到 {uniform}。",
    },
    "minilm_attention.rank.shown_all": {
        "en": "The heat maps show the query's whole row ({m} keys) in each top head.",
        "zh": "热图展示的是查询在每个排名靠前的头里的整行权重（{m} 个键）。",
    },
    "minilm_attention.rank.shown_window": {
        "en": "The heat maps show keys {first}–{last} of the {m} in the query's row (the window "
        "chosen above); the tables and sentences use all {m}.",
        "zh": "热图只显示查询这一行 {m} 个键中的第 {first}–{last} 个（即上面选的窗口）；"
        "表格和文字用的是全部 {m} 个。",
    },
    "minilm_attention.habits.title": {
        "en": "Position habits of the ranked heads",
        "zh": "排名靠前的头的位置习惯",
    },
    "minilm_attention.habits.body": {
        "en": "How each head ranked above spends a word's weight by position alone in this "
        "sentence: the mean, over the words ([CLS] and [SEP] left out as queries), of the weight "
        "each gives the token just before it, the token just after it, itself, the first key, "
        "the first word and the last key, beside an even share. A head whose words give one of "
        "these more than {share} of their weight on "
        "average has that pattern, and a weight it gives there is put down to position.",
        "zh": "上面排名靠前的每个头在这句话里如何仅凭位置分配一个词的权重：对句中的词（[CLS] 和 "
        "[SEP] 不作为查询）取平均，看每个词给紧挨在前面的 token、紧跟在后面的 token、给自己、"
        "给第一个键、给第一个词、给最后一个键各多少权重，旁边是平均分配的份额。"
        "如果一个头的词平均把超过 {share} "
        "的权重给其中某一个，这个头就有这种模式，它在那里给出的权重就归因于位置。",
    },
    "minilm_attention.habits.previous": {"en": "token just before", "zh": "前一个 token"},
    "minilm_attention.habits.next": {"en": "token just after", "zh": "后一个 token"},
    "minilm_attention.habits.same": {"en": "itself", "zh": "自己"},
    "minilm_attention.habits.first_word": {
        "en": "first word ({token})",
        "zh": "第一个词（{token}）",
    },
    "minilm_attention.habits.first": {"en": "first key ({token})", "zh": "第一个键（{token}）"},
    "minilm_attention.habits.last": {"en": "last key ({token})", "zh": "最后一个键（{token}）"},
    "minilm_attention.habits.uniform": {"en": "even share 1/m", "zh": "平均份额 1/m"},
    "minilm_attention.ctrl.title": {
        "en": "The same head in other sentences",
        "zh": "同一个头在别的句子里",
    },
    "minilm_attention.ctrl.body": {
        "en": "One sentence is one draw: a head can favour a token there because of where it "
        "stands, or by chance. Here one head is tried on {total} sentences in which a possessive "
        "pronoun (his, her) refers back to its owner, the owner at different distances and not "
        "always the first word. They are shown whatever your query is: the relation is the one "
        "the page's example is about (his → tom), and the question is whether a head that wins "
        "it in one sentence does the same in others. The head starts as the strongest for your "
        "first pair; pick any other. A sentence counts for the head when the weight from the "
        "pronoun to its owner is above what position alone predicts (the rule of the tables "
        "above) and the owner is the word the pronoun gives the most weight.",
        "zh": "一句话只是一次抽样：一个头偏向某个 token，可能是因为它所在的位置，也可能是碰巧。"
        "这里把一个头放到 {total} 个句子上检验，每句里都有一个物主代词（his、her）指回它的主人，"
        "主人离代词的距离各不相同，也不总是第一个词。不管你选的查询是什么，这里都会显示："
        "这种关系正是本页例子所讲的（his → tom），要问的是在一句话里胜出的头在别的句子里"
        "是否也这样。默认检验的是你第一组查询-目标里最强的头，你也可以换成任意别的头。"
        "当代词给主人的权重高于仅凭位置的预测（规则同上面的表格），并且主人是代词分到"
        "权重最多的词时，这句话才算这个头通过。",
    },
    "minilm_attention.ctrl.head": {"en": "Head to test", "zh": "要检验的头"},
    "minilm_attention.ctrl.col.sentence": {"en": "sentence", "zh": "句子"},
    "minilm_attention.ctrl.col.pair": {"en": "pronoun → owner", "zh": "代词 → 主人"},
    "minilm_attention.ctrl.col.top": {"en": "top word", "zh": "最看重的词"},
    "minilm_attention.ctrl.col.weight": {"en": "weight", "zh": "权重"},
    "minilm_attention.ctrl.col.predicted": {"en": "by position", "zh": "按位置预测"},
    "minilm_attention.ctrl.help.weight": {
        "en": "The weight the head gives from the pronoun to its owner.",
        "zh": "这个头从代词给主人的权重。",
    },
    "minilm_attention.ctrl.help.predicted": {
        "en": "What position alone predicts for that weight (the rule of the ranking's tables).",
        "zh": "仅凭位置对这个权重的预测（规则同上面排名表格）。",
    },
    "minilm_attention.ctrl.help.top": {
        "en": "The word the pronoun gives the most weight in this head, by position and text.",
        "zh": "在这个头里，代词分到权重最多的词（位置 · 文字）。",
    },
    "minilm_attention.ctrl.summary": {
        "en": "In {above} of {total} sentences {head}'s weight from the pronoun to its owner is "
        "above what position alone predicts; in {links} of them the owner is also the word the "
        "pronoun gives the most weight.",
        "zh": "在 {total} 个句子中，有 {above} 个句子里 {head} 从代词给主人的权重高于仅凭位置的"
        "预测；其中有 {links} 个句子里，主人也是代词分到权重最多的词。",
    },
    "minilm_attention.ctrl.verdict.all": {
        "en": "So {head} passes in every sentence tried: a pronoun-to-owner pattern that position "
        "does not explain — still a pattern, not proof that the model resolves the reference.",
        "zh": "所以 {head} 在试过的每个句子里都通过了：这是一个位置解释不了的“代词指向主人”的"
        "模式——但仍只是模式，不能证明模型解决了指代问题。",
    },
    "minilm_attention.ctrl.verdict.most": {
        "en": "So {head} passes in most of the sentences tried ({links} of {total}), not in all.",
        "zh": "所以 {head} 在试过的大多数句子里通过了（{total} 个中的 {links} 个），但不是全部。",
    },
    "minilm_attention.ctrl.verdict.some": {
        "en": "So {head} passes in only {links} of the {total}: a strong weight in one sentence "
        "does not make it a pronoun-to-owner head.",
        "zh": "所以 {head} 只在 {total} 个中的 {links} 个里通过：在一句话里权重大，"
        "并不能让它成为“代词指向主人”的头。",
    },
    "minilm_attention.ctrl.verdict.none": {
        "en": "So {head} passes in none of them: it does not link a pronoun to its owner in "
        "these sentences.",
        "zh": "所以 {head} 一个也没有通过：在这些句子里，它并不把代词连向它的主人。",
    },
    "minilm_attention.ctrl.habit.offset_after": {
        "en": "In every one of them {head}'s top word is the token {k} {k:place|places} after "
        "the pronoun: a position habit, which finds the owner only where the owner stands there.",
        "zh": "在每一个句子里，{head} 权重最大的词都是代词后面第 {k} 个 token：这是位置习惯，"
        "只有主人恰好站在那里时它才会找到主人。",
    },
    "minilm_attention.ctrl.habit.offset_before": {
        "en": "In every one of them {head}'s top word is the token {k} {k:place|places} before "
        "the pronoun: a position habit, which finds the owner only where the owner stands there.",
        "zh": "在每一个句子里，{head} 权重最大的词都是代词前面第 {k} 个 token：这是位置习惯，"
        "只有主人恰好站在那里时它才会找到主人。",
    },
    "minilm_attention.ctrl.habit.first_word": {
        "en": "In every one of them {head}'s top word is the sentence's first word: a position "
        "habit, which finds the owner only where the owner comes first.",
        "zh": "在每一个句子里，{head} 权重最大的词都是句子的第一个词：这是位置习惯，"
        "只有主人恰好排在最前面时它才会找到主人。",
    },
    "minilm_attention.ctrl.own_left_out": {
        "en": "“{sentence}” is your own sentence, so it is left out of the controls: a head "
        "picked on a sentence passes that one by construction.",
        "zh": "“{sentence}”就是你自己的句子，所以不算作对照：在某句话上挑出来的头，"
        "在这句话上必然通过。",
    },
    "minilm_attention.off.title": {"en": "Switch one head off", "zh": "关掉一个头"},
    "minilm_attention.off.body": {
        "en": "A large weight says where a head looks, not whether what it brings back matters. "
        "To ask that, the sentence is run once more with one head switched off: its output (the "
        "values weighted by its attention, ${{n \\times d_k}}$) is set to 0 before the heads are "
        "concatenated and multiplied by $W^O$; every other number is as trained. The layers "
        "below it do not change at all; from its layer up, the change spreads. Two cosines "
        "measure it, each between the run with every head on and the run with this one off "
        "(1 = unchanged): of the query token's last hidden state, and of the sentence embedding. "
        "One head's change means little alone, so a control head is switched off too, in its "
        "own run: of the other {others} heads of the same layer, the one in the middle when they "
        "are ranked by the weight {query} gives {target}. It is chosen by the ranking's measure, "
        "not by what switching it off does, and it works at the same depth. The head to switch "
        "off starts as the strongest for your first pair, {query} → {target}; pick any other.",
        "zh": "权重大只说明一个头看向哪里，不说明它带回来的东西是否要紧。要回答这个问题，"
        "就把句子再算一遍，但关掉一个头：在各个头拼接起来、再乘以 $W^O$ 之前，把它的输出"
        "（按它的注意力加权后的值向量，${{n \\times d_k}}$）设为 0；其余的数都保持训练好的样子。"
        "它下面的各层完全不变；从它所在的层往上，变化逐层传开。用两个余弦来衡量，都是在所有头"
        "都开着的结果与关掉这个头的结果之间计算（1 表示没变）：一个是查询 token 最后一层的隐藏"
        "状态，一个是句子向量。只看一个头的变化说明不了多少，所以另算一遍，关掉一个对照头："
        "同一层其余 {others} 个头按 {query} 给 {target} 的权重排序，取排在中间的那个。"
        "它是按排名用的同一个量挑出来的，而不是按关掉它的效果挑的，而且在同样的深度起作用。"
        "要关掉的头默认是你第一组查询-目标 {query} → {target} 最强的头；也可以换成别的。",
    },
    "minilm_attention.off.head": {"en": "Head to switch off", "zh": "要关掉的头"},
    "minilm_attention.off.col.run": {"en": "heads", "zh": "头"},
    "minilm_attention.off.row.all": {"en": "all on", "zh": "全部开着"},
    "minilm_attention.off.row.off": {"en": "{head} off", "zh": "关掉 {head}"},
    "minilm_attention.off.row.control": {"en": "{head} off (control)", "zh": "关掉 {head}（对照）"},
    "minilm_attention.off.col.weight": {
        "en": "weight {query} → {target} in it",
        "zh": "它里面 {query} → {target} 的权重",
    },
    "minilm_attention.off.col.query": {
        "en": "cos, {query}'s last hidden state",
        "zh": "余弦：{query} 最后一层的隐藏状态",
    },
    "minilm_attention.off.col.change": {"en": "1 − cos ({query})", "zh": "{query} 的 1 − cos"},
    "minilm_attention.off.col.sentence": {"en": "cos, sentence embedding", "zh": "余弦：句子向量"},
    "minilm_attention.off.col.nearest": {
        "en": "{query}'s nearest token",
        "zh": "离 {query} 最近的 token",
    },
    "minilm_attention.off.caption": {
        "en": "Each cosine is between that run and the run with every head on. Nearest token: of "
        "the sentence's other tokens ([CLS] and [SEP] left out), the one whose last hidden state "
        "has the highest cosine with {query}'s, in that run.",
        "zh": "每个余弦都是在那一次运行与所有头都开着的运行之间计算的。最近的 token："
        "在那一次运行里，句子其余的 token（不算 [CLS] 和 [SEP]）中，最后一层隐藏状态与 "
        "{query} 的余弦最高的那个。",
    },
    "minilm_attention.off.verdict.more": {
        "en": "Switching {head} off moves {query}'s last hidden state more than {ratio} times as "
        "far as switching off the control {control} (1 − cos: {change} against "
        "{control_change}): in this sentence what {head} brings back counts for {query} more "
        "than what a middling head of its layer brings.",
        "zh": "关掉 {head} 让 {query} 最后一层的隐藏状态移动的距离，是关掉对照头 {control} 的 "
        "{ratio} 倍以上（1 − cos：{change} 对 {control_change}）：在这句话里，{head} "
        "带回来的东西对 {query} 的分量，比同一层一个居中的头更重。",
    },
    "minilm_attention.off.verdict.less": {
        "en": "Switching off the control {control} moves {query}'s last hidden state more than "
        "{ratio} times as far as switching off {head} (1 − cos: {control_change} against "
        "{change}): the large weight of {head} does not make its output count more for {query} "
        "— here it counts less.",
        "zh": "关掉对照头 {control} 让 {query} 最后一层的隐藏状态移动的距离，是关掉 {head} 的 "
        "{ratio} 倍以上（1 − cos：{control_change} 对 {change}）：{head} 的权重大，"
        "并没有让它的输出对 {query} 更要紧——在这里反而更轻。",
    },
    "minilm_attention.off.verdict.similar": {
        "en": "Switching {head} off and switching off the control {control} move {query}'s last "
        "hidden state by amounts within a factor of {ratio} of each other (1 − cos: {change} "
        "against {control_change}): by this test there is no clear difference between {head} "
        "and a middling head of its layer, whatever its weight.",
        "zh": "关掉 {head} 和关掉对照头 {control}，让 {query} 最后一层的隐藏状态移动的距离"
        "相差不到 {ratio} 倍（1 − cos：{change} 对 {control_change}）：按这个检验，"
        "不管 {head} 的权重多大，都看不出它和同一层一个居中的头有明显差别。",
    },
    "minilm_attention.off.verdict.neither": {
        "en": "Neither switch moves {query}'s last hidden state by {floor} or more (1 − cos: "
        "{change} with {head} off, {control_change} with {control} off): without either head "
        "the rest of the model leaves {query}'s state almost as it was, so the two cannot be "
        "told apart here.",
        "zh": "两次关闭都没有让 {query} 最后一层的隐藏状态移动 {floor} 或更多（1 − cos："
        "关掉 {head} 时为 {change}，关掉 {control} 时为 {control_change}）：少了其中任何一个头，"
        "模型的其余部分都让 {query} 的状态几乎保持原样，所以这里分不出两者的高低。",
    },
    "minilm_attention.know.title": {
        "en": "How we know: the controls on this page",
        "zh": "我们凭什么这么说：本页用到的对照",
    },
    "minilm_attention.know.body": {
        "en": "- **Position alone.** Beside each ranked head's weight stands what position alone "
        "predicts: the mean weight the other words of the same sentence give the key at the "
        "same distance from them (for the first and the last key, that key itself). A weight is "
        "*above* when it is more than {ratio} times that and more than an even share.\n"
        "- **Position patterns.** A head whose words give the token just before or just after "
        "them, themselves, the first key, the first word or the last key more than {share} of "
        "their weight on average has that pattern; a weight it gives there is put down to "
        "position, however large.\n"
        "- **An even spread.** 1/m, what each of m keys would get from a row spread evenly.\n"
        "- **All heads, not only the winner.** How many of the {heads} heads are above for the "
        "pair, and how many give it more than half: a winner among many strong heads says "
        "little.\n"
        "- **Other sentences.** One head tried on {total} sentences with the same relation, a "
        "possessive pronoun and its owner (your own sentence left out if it is one of them), and "
        "where its top word stands in each: always the same place is a position habit.\n"
        "- **One head switched off.** Its output set to 0 before $W^O$, the sentence run again, "
        "and the query's last hidden state and the sentence embedding compared with the full "
        "run; beside it the same for a control head of the same layer, the middle one of the "
        "ranking for the pair. The head is said to move the query further only when it moves "
        "it more than {off_ratio} times as far as the control does: between two heads of one "
        "layer taken without regard to any pair, one moves a token that much more than the "
        "other about one time in eight. Changes under {floor} on both sides are not compared.\n"
        "- **[CLS] and [SEP].** The switch at the top shows how much weight they take; with "
        "them hidden, every control is computed on the renormalised weights.\n\n"
        "None of these shows that the model uses a weight, or that it has resolved a "
        "reference: see the note below.",
        "zh": "- **仅凭位置。** 每个排名靠前的头的权重旁边，都列出仅凭位置能预测的值：同一句话里"
        "其余的词给与自己相同距离的那个键的平均权重（第一个键和最后一个键则直接取那个键）。"
        "权重超过它的 {ratio} 倍、并超过平均分配的份额时，才算*高于*。\n"
        "- **位置模式。** 如果一个头的词平均把超过 {share} 的权重给紧挨在前面或后面的 token、"
        "给自己、给第一个键、第一个词或最后一个键，它就有这种模式；"
        "它在那里给出的权重再大，也归因于位置。\n"
        "- **平均分配。** 1/m，也就是一行权重平均分给 m 个键时每个键得到的份额。\n"
        "- **看全部的头，而不只看冠军。** {heads} 个头中有多少个对这组查询-目标高于预测、"
        "有多少个给了超过一半的权重：在许多强的头里选出一个冠军，说明不了多少。\n"
        "- **别的句子。** 把一个头放到 {total} 个具有同一种关系（物主代词和它的主人）的句子上"
        "检验（如果你的句子就是其中之一，就把它除外），并看它权重最大的词在每句中的位置："
        "总在同一个位置，就是位置习惯。\n"
        "- **关掉一个头。** 在乘以 $W^O$ 之前把它的输出设为 0，把句子重新算一遍，再拿查询 "
        "token 最后一层的隐藏状态和句子向量跟完整的结果比较；旁边对同一层的一个对照头"
        "（这组查询-目标排名居中的那个）做同样的事。只有当它让查询移动的距离超过对照头的 "
        "{off_ratio} 倍时，才说它让查询移动得更远：同一层里不看任何一组查询-目标、"
        "随便取两个头，一个让 token 移动的距离超过另一个这么多倍的情况，大约八次里有一次。"
        "两边的变化都小于 {floor} 时不作比较。\n"
        "- **[CLS] 和 [SEP]。** 顶部的开关显示它们拿走了多少权重；隐藏它们时，"
        "所有对照都在重新归一化后的权重上计算。\n\n"
        "这些对照都不能说明模型用到了某个权重，也不能说明它已经解决了指代：见下面的提示。",
    },
    "minilm_attention.caveat": {
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
    "minilm_attention.solved": {
        "en": "a trained model's attention for your own sentence, all 6 × 12 heads, computed "
        "by our own code — and, for any query and target you pick, the heads ranked by the "
        "weight they give it, each beside what position alone predicts, with the winner tried "
        "on other sentences of the same relation.",
        "zh": "看到了一个训练好的模型对你自己句子的注意力：全部 6 × 12 个头，由我们自己的代码"
        "计算；对你挑选的任意查询和目标，所有头按给目标的权重排了名，每个头旁边都有仅凭位置的"
        "预测，冠军还放到具有同一种关系的别的句子上检验过。",
    },
    "minilm_attention.hurts": {
        "en": "weights are only where information is read from; what each token becomes is in "
        "its hidden states — the next page follows them layer by layer.",
        "zh": "权重只说明信息从哪里读取；每个 token 最终变成了什么，要看它的隐藏状态——"
        "下一页会逐层跟踪它们。",
    },
}
