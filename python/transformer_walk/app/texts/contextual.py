"""Words of the Contextual meaning page (prefix ``ctx.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "ctx.title": {"en": "Contextual meaning", "zh": "上下文中的意义"},
    "ctx.intro": {
        "en": "A lookup table such as word2vec's, or the first table of a Transformer, is "
        "**static**: one row per vocabulary entry, the same vector in every sentence. The "
        "*bank* of a river and the *bank* that keeps your cash start from one and the same row. "
        "A Transformer encoder then lets every token rewrite its vector from both sides of "
        "its context, layer after layer — BERT-style models are built for exactly that. What "
        "comes out, the hidden state, is a **contextual** representation. Below, the trained "
        "MiniLM shows the difference with real numbers.",
        "zh": "像 word2vec 那样的查找表，或者 Transformer 的第一张表，都是**静态**的："
        "词表里每一项一行，放进任何句子都是同一个向量。河边的 *bank* 和存钱的 *bank* "
        "都从同一行出发。Transformer 编码器随后让每个 token 一层接一层地根据左右两侧的上下文"
        "改写自己的向量——BERT 一类的模型正是为此而设计的。最后得到的隐藏状态就是"
        "**上下文相关**的表示。下面用训练好的 MiniLM 拿真实数字来展示这个区别。",
    },
    # --- one word, two sentences -----------------------------------------------------------------
    "ctx.pair.title": {
        "en": "One word, two sentences: same start, different end",
        "zh": "一个词，两个句子：起点相同，终点不同",
    },
    "ctx.pair.body": {
        "en": "Type two sentences that use one word in different senses, and the word. We "
        "compare the word's vectors in the two runs with the cosine (1 = same direction): first "
        "the rows of the input table, then the model's input after positions are added and "
        "normalised (layer 0), then the output of every layer. A word that WordPiece splits "
        "into several pieces is the mean of its pieces. Any two sentences move a word's vector "
        "somewhat, so a third sentence, A′, uses the word in the same sense as A: the control. "
        "Only if A and B end clearly further apart than A and A′ do the numbers point to the "
        "sense.",
        "zh": "输入两个在不同意义上使用同一个词的句子，再输入这个词。我们用余弦相似度"
        "（1 表示方向完全相同）比较这个词在两次运行中的向量：先比较输入表中的行，"
        "再比较加上位置向量并归一化之后的模型输入（第 0 层），然后比较每一层的输出。"
        "如果 WordPiece 把这个词切成了好几个子词，就取这些子词向量的平均。"
        "任意两个句子都会让这个词的向量有所变化，所以第三个句子 A′ 以和 A 相同的意思使用这个词，"
        "作为对照：只有当 A 与 B 最后明显比 A 与 A′ 离得更远时，这些数字才说明差别来自词义。",
    },
    "ctx.pair.a": {"en": "Sentence A", "zh": "句子 A"},
    "ctx.pair.b": {"en": "Sentence B", "zh": "句子 B"},
    "ctx.pair.control": {
        "en": "Control A′ (the word in A's sense)",
        "zh": "对照句 A′（词义与 A 相同）",
    },
    "ctx.pair.word": {"en": "Word", "zh": "词"},
    "ctx.pair.empty": {
        "en": "Type two sentences and a word that occurs in both.",
        "zh": "请输入两个句子，以及一个在两句中都出现的词。",
    },
    "ctx.pair.control_not_found": {
        "en": "“{word}” does not occur in the control sentence: {text}. The pair A, B is shown "
        "without a control.",
        "zh": "“{word}” 没有出现在对照句中：{text}。下面只显示 A、B 这一对，没有对照。",
    },
    "ctx.pair.no_control": {
        "en": "Without a control sentence there is no yardstick: a lower cosine alone does not "
        "say whether the sense or just the other words made the difference. Type a sentence "
        "that uses the word as A does.",
        "zh": "没有对照句就没有参照：余弦低了，本身并不能说明差别来自词义还是只是来自别的词。"
        "请输入一个和 A 用法相同的句子。",
    },
    "ctx.pair.control_pieces": {
        "en": "In the control A′, “{word}” is {c}.",
        "zh": "在对照句 A′ 中，“{word}” 是 token {c}。",
    },
    "ctx.pair.control_other_rows": {
        "en": "In the control A′, “{word}” is {c}: other token ids than in A, so the control "
        "starts from other input rows too and compares more than the context.",
        "zh": "在对照句 A′ 中，“{word}” 是 {c}：token id 和 A 中的不同，所以对照句连输入表中的行"
        "都不一样，比较的就不只是上下文了。",
    },
    "ctx.pair.not_found": {
        "en": "“{word}” does not occur in: {text}. Pick a word that both sentences contain.",
        "zh": "“{word}” 没有出现在：{text}。请选一个两句都包含的词。",
    },
    "ctx.pair.pieces": {
        "en": "“{word}” is {a} in sentence A and {b} in sentence B (# = position, [CLS] is #1).",
        "zh": "“{word}” 在句子 A 中是 token {a}，在句子 B 中是 {b}（# 表示位置，[CLS] 是 #1）。",
    },
    "ctx.metric.word": {
        "en": "cos of the input-table rows",
        "zh": "输入表中两行的余弦",
    },
    "ctx.metric.embedded": {"en": "cos at layer 0", "zh": "第 0 层的余弦"},
    "ctx.metric.embedded_help": {
        "en": "The input row plus its position vector, after LayerNorm: what layer 1 reads.",
        "zh": "输入表中的行加上位置向量，再经过 LayerNorm：第 1 层读到的就是它。",
    },
    "ctx.metric.last": {"en": "cos after layer 6", "zh": "第 6 层之后的余弦"},
    "ctx.metric.control": {
        "en": "control A vs A′, after layer 6",
        "zh": "对照 A 与 A′，第 6 层之后",
    },
    "ctx.pair.same_rows": {
        "en": "The word has the same token ids in both sentences, so the lookup returns the very "
        "same rows: a cosine of exactly 1. Layer 0 adds a position vector and normalises, "
        "which changes the word's vector only where it sits at a different position; the "
        "layers that read the context do the rest.",
        "zh": "这个词在两句中的 token id 相同，所以查表取出的是完全相同的行：余弦正好是 1。"
        "第 0 层再加上位置向量并做归一化，只有当这个词在两句中的位置不同时，"
        "它的向量才会因此改变；其余的差别都来自读取上下文的那些层。",
    },
    "ctx.pair.same_position": {
        "en": "Here the word even sits at the same position (#{position}) in both sentences, so "
        "the position vector added to it is the same too and layer 0 is still identical: "
        "every difference after it comes from reading the context.",
        "zh": "这里这个词在两句中甚至处在同一个位置（#{position}），所以加上的位置向量也相同，"
        "第 0 层仍然完全一样：此后的每一点差别都来自对上下文的读取。",
    },
    "ctx.pair.other_rows": {
        "en": "Here the word was split into different token ids in the two sentences, so even "
        "the input rows differ. Try a word that is written the same way in both.",
        "zh": "这里这个词在两句中被切成了不同的 token id，所以连输入表中的行都不一样。"
        "试试一个在两句中写法完全相同的词。",
    },
    "ctx.series.hidden": {
        "en": "hidden state, A vs B",
        "zh": "隐藏状态，A 与 B",
    },
    "ctx.series.control": {
        "en": "hidden state, A vs A′ (control)",
        "zh": "隐藏状态，A 与 A′（对照）",
    },
    "ctx.series.word": {
        "en": "input-table row, A vs B (static)",
        "zh": "输入表中的行，A 与 B（静态）",
    },
    "ctx.axis.layer": {"en": "layer", "zh": "层"},
    "ctx.axis.cosine": {"en": "cos of the two “{word}” vectors", "zh": "两个 “{word}” 向量的余弦"},
    "ctx.col.control": {"en": "cos, control", "zh": "余弦（对照）"},
    "ctx.axis.series": {"en": "vector", "zh": "向量"},
    "ctx.pair.path": {
        "en": "In A and B the two “{word}” vectors have a cosine of {first} at layer 0 and "
        "{last} after layer 6.",
        "zh": "在 A 和 B 中，两个 “{word}” 向量在第 0 层的余弦是 {first}，第 6 层之后是 {last}。",
    },
    "ctx.pair.path_dip": {
        "en": "In A and B the two “{word}” vectors have a cosine of {first} at layer 0 and "
        "{last} after layer 6 (lowest: {lowest}, at layer {at}).",
        "zh": "在 A 和 B 中，两个 “{word}” 向量在第 0 层的余弦是 {first}，第 6 层之后是 {last}"
        "（最低 {lowest}，出现在第 {at} 层）。",
    },
    "ctx.pair.verdict.apart": {
        "en": "After layer 6, “{word}” in A and B has a cosine of {test}; in A and the "
        "same-sense control A′, {control}. The tested pair ends {gap} lower — more than "
        "{margin}, how much “bank” moved between 15 same-sense river sentences (a rough guide "
        "for other words). So here "
        "the hidden states put A's and B's “{word}” further apart than two uses of A's sense.",
        "zh": "第 6 层之后，“{word}” 在 A 和 B 中的余弦是 {test}；在 A 和词义相同的对照句 A′ 中是 "
        "{control}。被测的这一对低了 {gap}，超过了 {margin}"
        "（这是 “bank” 在 15 个同义的河岸句子之间的变化幅度，"
        "对别的词只是粗略的参照）。所以在这里，隐藏状态让 A 与 B 中的 “{word}” "
        "比同一词义下的两次使用离得更远。",
    },
    "ctx.pair.verdict.no_gap": {
        "en": "After layer 6, “{word}” in A and B has a cosine of {test}; in A and the "
        "same-sense control A′, {control}. They differ by only {gap}, within {margin} (about "
        "what swapping one same-sense sentence for another changes): these numbers do not show "
        "the hidden states telling a difference of sense apart. Perhaps A and B use the word "
        "in the same sense.",
        "zh": "第 6 层之后，“{word}” 在 A 和 B 中的余弦是 {test}；在 A 和词义相同的对照句 A′ 中是 "
        "{control}。两者只差 {gap}，在 {margin} 以内（这是 “bank” 在 15 个同义的河岸句子之间的"
        "变化幅度，对别的词只是粗略的参照）：这些数字并不能说明隐藏状态区分出了词义的不同。"
        "也许 A 和 B 里这个词的意思本来就一样。",
    },
    "ctx.pair.verdict.reversed": {
        "en": "After layer 6, “{word}” in A and B has a cosine of {test}; in A and the "
        "control A′, {control}: the tested pair ends {gap} closer than the control, more than "
        "{margin}. Either A′ does not use the word as A does, or something other than the "
        "sense (length, position, neighbouring words) weighs more here.",
        "zh": "第 6 层之后，“{word}” 在 A 和 B 中的余弦是 {test}；在 A 和对照句 A′ 中是 "
        "{control}：被测的这一对反而比对照更接近，高出 {gap}，超过了 {margin}。要么 A′ 里"
        "这个词的用法和 A 不同，要么这里起作用的不是词义，而是别的因素（句长、位置、相邻的词）。",
    },
    # --- sentence similarity ---------------------------------------------------------------------
    "ctx.sim.title": {"en": "Whole sentences compared", "zh": "比较整句话"},
    "ctx.sim.body": {
        "en": "MiniLM was trained so that the mean of its last hidden states, scaled to length "
        "1, is a sentence embedding: sentences that mean similar things should point in similar "
        "directions, even without a shared word — though shared words pull too, as the note "
        "under the matrix checks. One sentence per line; the matrix holds "
        "the cosine of every pair (the sentences are padded into one batch and the padding is "
        "masked out of attention).",
        "zh": "MiniLM 的训练目标，是让它最后一层隐藏状态的平均值（再缩放到长度 1）成为句子向量："
        "意思相近的句子，即使没有共同的词，向量方向也应当相近——不过共同的词也会把句子拉近，"
        "矩阵下方的说明会检查这一点。每行一个句子；"
        "矩阵给出每一对句子的余弦（这些句子被补齐成一批，补齐的位置在注意力中被屏蔽）。",
    },
    "ctx.sim.input": {"en": "Sentences, one per line", "zh": "句子，每行一个"},
    "ctx.sim.capped": {
        "en": "Only the first {shown} of the {n} sentences are compared.",
        "zh": "{n} 个句子中只比较前 {shown} 个。",
    },
    "ctx.sim.too_few": {
        "en": "Type at least two sentences, one per line.",
        "zh": "请至少输入两个句子，每行一个。",
    },
    "ctx.sim.computing": {
        "en": "Embedding {n} sentences…",
        "zh": "正在计算 {n} 个句子的向量…",
    },
    "ctx.sim.sentence": {"en": "sentence", "zh": "句子"},
    "ctx.sim.closest.none": {
        "en": "The closest pair: “{a}” and “{b}” (cos = {cos}). They share no word: what brings "
        "them together is not spelling.",
        "zh": "最接近的一对：“{a}” 和 “{b}”（cos = {cos}）。它们没有共同的词："
        "让它们靠近的不是字面上的重合。",
    },
    "ctx.sim.closest.little": {
        "en": "The closest pair: “{a}” and “{b}” (cos = {cos}). They share only {words} (word "
        "overlap {jaccard}: shared words over all distinct words of the two).",
        "zh": "最接近的一对：“{a}” 和 “{b}”（cos = {cos}）。它们共同的词只有 {words}"
        "（词重合度 {jaccard}：共同的词占两句全部不同词的比例）。",
    },
    "ctx.sim.closest.shared": {
        "en": "The closest pair: “{a}” and “{b}” (cos = {cos}). They share {words} (word overlap "
        "{jaccard}: shared words over all distinct words of the two), so part of that closeness "
        "may be the shared words rather than the meaning.",
        "zh": "最接近的一对：“{a}” 和 “{b}”（cos = {cos}）。它们有共同的词 {words}"
        "（词重合度 {jaccard}：共同的词占两句全部不同词的比例），所以这份接近可能有一部分"
        "来自共同的词，而不是意思。",
    },
    "ctx.sim.word_sep": {"en": ", ", "zh": "、"},
    "ctx.sim.pull": {
        "en": "“{a}” is closer to “{b}” (cos = {cos_b}) than to “{c}” (cos = {cos_c}). It shares "
        "{words_b} with the first (overlap {jaccard_b}) and only {words_c} with the "
        "second (overlap {jaccard_c}): sentence embeddings are pulled together by shared words, "
        "not only by meaning. Does this order match what the sentences mean?",
        "zh": "“{a}” 离 “{b}”（cos = {cos_b}）比离 “{c}”（cos = {cos_c}）更近。它和前者有共同的词 "
        "{words_b}（重合度 {jaccard_b}），和后者只有 {words_c}（重合度 {jaccard_c}）："
        "句子向量不仅被意思拉近，也被共同的词拉近。这个远近顺序符合句子的意思吗？",
    },
    "ctx.sim.pull_none": {
        "en": "“{a}” is closer to “{b}” (cos = {cos_b}) than to “{c}” (cos = {cos_c}). It shares "
        "{words_b} with the first (overlap {jaccard_b}) and none with the second: "
        "sentence embeddings are pulled together by shared words, not only by meaning. Does "
        "this order match what the sentences mean?",
        "zh": "“{a}” 离 “{b}”（cos = {cos_b}）比离 “{c}”（cos = {cos_c}）更近。它和前者有共同的词 "
        "{words_b}（重合度 {jaccard_b}），和后者一个也没有："
        "句子向量不仅被意思拉近，也被共同的词拉近。这个远近顺序符合句子的意思吗？",
    },
    "ctx.sim.note": {
        "en": "Similarity here is what the model learned from the sentence pairs it was trained "
        "on — a useful signal, not a judgement of truth or meaning.",
        "zh": "这里的相似度，是模型从训练用的句子对中学到的——一个有用的信号，"
        "而不是对真假或意义的裁决。",
    },
    # --- one token across the layers --------------------------------------------------------------
    "ctx.track.title": {
        "en": "One token across the layers: does it move toward another?",
        "zh": "一个 token 穿过各层：它会向另一个 token 靠近吗？",
    },
    "ctx.track.body": {
        "en": "For the sentence in the sidebar, every token's hidden state at every layer (0 to "
        "6) is projected onto the same two directions — one PCA fitted on all of them "
        "together, so positions can be compared across layers. The two tokens you pick are "
        "drawn as paths, numbered by layer; the other tokens are grey dots. [CLS] and [SEP] "
        "are left out of the picture.",
        "zh": "对侧边栏里的句子，把每个 token 在每一层（0 到 6）的隐藏状态投影到同样的两个方向上——"
        "对全部向量一起做一次 PCA，所以不同层的位置可以互相比较。你选的两个 token 画成路径，"
        "并标出层号；其他 token 是灰色的点。图中不包括 [CLS] 和 [SEP]。",
    },
    "ctx.track.too_short": {
        "en": "The sidebar sentence needs at least two tokens besides [CLS] and [SEP] to "
        "follow one toward another.",
        "zh": "侧边栏里的句子除了 [CLS] 和 [SEP] 之外至少要有两个 token，"
        "才能跟踪一个向另一个的变化。",
    },
    "ctx.track.token": {"en": "Token to follow", "zh": "要跟踪的 token"},
    "ctx.track.toward": {"en": "Toward", "zh": "是否靠近"},
    "ctx.track.by_attention": {
        "en": "This sentence has no “{preferred}”, so “Toward” starts on “{b}”: the token “{a}” "
        "gives the most attention, averaged over all {layers} layers × {heads} heads (mean "
        "weight {weight}; [CLS], [SEP], [UNK] and tokens without a letter or digit left "
        "out).",
        "zh": "这个句子里没有 “{preferred}”，所以“是否靠近”一开始选的是 “{b}”："
        "把全部 {layers} 层 × {heads} 个头平均起来，“{a}” 给它的注意力最多"
        "（平均权重 {weight}；不计 [CLS]、[SEP]、[UNK] 以及不含字母或数字的 token）。",
    },
    "ctx.track.token_axis": {"en": "token", "zh": "token"},
    "ctx.track.variance": {
        "en": "The two axes keep {share} of the variance of these {m} tokens' vectors over the 7 "
        "layers: the picture is a shadow. The numbers below are measured in the full 384 "
        "dimensions.",
        "zh": "这两个坐标轴保留了这 {m} 个 token 在 7 层中向量方差的 {share}：这张图只是一个投影。"
        "下面的数字是在完整的 384 维空间里测量的。",
    },
    "ctx.track.col.cos": {"en": "cosine", "zh": "余弦"},
    "ctx.track.col.dist": {"en": "Euclidean distance", "zh": "欧氏距离"},
    "ctx.track.col.rank": {
        "en": "rank among the other tokens (1 = nearest)",
        "zh": "在其他 token 中的名次（1 = 最近）",
    },
    "ctx.track.closer": {
        "en": "Yes, by the cosine and by the rank: “{a}” and “{b}” go from {first} at layer 0 to "
        "{last} after layer 6 (closest: {best}, at layer {at}), and “{b}” ends as the nearest of "
        "the {m} other tokens.",
        "zh": "按余弦和名次来看都是：“{a}” 和 “{b}” 从第 0 层的 {first} 变成第 6 层之后的 {last}"
        "（最接近时为 {best}，在第 {at} 层），而且最后 “{b}” 是其他 {m} 个 token 中最近的。",
    },
    "ctx.track.all_closer": {
        "en": "The cosine rose, but the rank does not single “{b}” out: “{a}” and “{b}” go from "
        "{first} at layer 0 to {last} after layer 6 (closest: {best}, at layer {at}), yet “{b}” "
        "goes from number {rank0} to number {rank} of the {m} other tokens in closeness to "
        "“{a}”.",
        "zh": "余弦上升了，但名次并没有把 “{b}” 单独挑出来：“{a}” 和 “{b}” 从第 0 层的 {first} "
        "变成第 6 层之后的 {last}（最接近时为 {best}，在第 {at} 层），可 “{b}” 最后在其他 {m} "
        "个 token 中从第 {rank0} 名变成第 {rank} 名。",
    },
    "ctx.track.alike": {
        "en": "Meanwhile “{a}”'s mean cosine to the other tokens went from {o_first} to {o_last}: "
        "the tokens of the sentence grew alike.",
        "zh": "与此同时，“{a}” 与其他 token 的平均余弦从 {o_first} 变成了 {o_last}：句中的 token "
        "都变得更像了。",
    },
    "ctx.track.not_alike": {
        "en": "“{a}”'s mean cosine to the other tokens went from {o_first} to {o_last}: the "
        "tokens as a whole did not grow alike.",
        "zh": "“{a}” 与其他 token 的平均余弦从 {o_first} 变成了 {o_last}：整体上 token 并没有变得"
        "更像。",
    },
    "ctx.track.not_closer": {
        "en": "Not by the cosine: “{a}” and “{b}” go from {first} at layer 0 to {last} after "
        "layer 6 (closest: {best}, at layer {at}).",
        "zh": "按余弦来看，并没有：“{a}” 和 “{b}” 从第 0 层的 {first} 变成第 6 层之后的 {last}"
        "（最接近时为 {best}，在第 {at} 层）。",
    },
    "ctx.track.caveat": {
        "en": "Careful with the reading. In a trained encoder all tokens of a sentence tend to "
        "grow more alike in the upper layers (they share more and more context), so compare "
        "with the rank column: does “{b}” become nearer to “{a}” than the other tokens are? "
        "And nearness is not reference: a hidden state mixes many relations at once.",
        "zh": "解读时要小心。在训练好的编码器里，一句话中的所有 token 到了较高的层往往会变得更相似"
        "（它们共享的上下文越来越多），所以请对照名次那一列：“{b}” 是否比其他 token "
        "更接近 “{a}”？而且“接近”不等于“指代”：一个隐藏状态同时混合了许多种关系。",
    },
    "ctx.solved": {
        "en": "context: the same word gets different vectors in different sentences, and whole "
        "sentences can be compared by meaning.",
        "zh": "上下文：同一个词在不同句子里得到不同的向量，整句话也能按意思相互比较。",
    },
    "ctx.hurts": {
        "en": "all this costs n² attention scores per head and layer — how fast can it run? The "
        "Speed race page races the backends.",
        "zh": "这一切的代价是每个头、每一层都要算 n² 个注意力分数——它能跑多快？"
        "“速度对决”页让几个后端比一比。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "ctx.tex.embedding": {"en": "token embedding", "zh": "token 的词向量"},
    "ctx.tex.contextual": {"en": "contextual representation", "zh": "上下文表示"},
    # --- how we know ------------------------------------------------------------------------------
    "ctx.know.title": {
        "en": "How we know: the controls on this page",
        "zh": "我们凭什么这么说：本页用到的对照",
    },
    "ctx.know.body": {
        "en": "- **A same-sense pair.** Two sentences drift apart anyway, sense or no sense: "
        "different neighbours change every hidden state. So the different-sense pair is read "
        "against a pair of the same word in the same sense, computed the same way; only a gap "
        "larger than {margin} (how much “bank” moved between 15 same-sense river sentences, a "
        "rough guide for other words) "
        "is called a difference of sense.\n"
        "- **Shared words.** Sentence embeddings are pulled together by the words two sentences "
        "share, not only by what they mean; the page names the shared words when they could "
        "explain which sentences come out closest.\n"
        "- **The rank, not only the cosine.** When one token's vector moves toward another, "
        "every token may be moving toward every other; the rank among all the sentence's "
        "tokens tells the two cases apart.",
        "zh": "- **同义对照。** 不管意思是否相同，两句话里的同一个词都会渐渐分开："
        "邻居不同，每个隐藏状态都会变。所以异义的一对要与同一个词、同一种意思的一对相比，"
        "两者用同样的方法计算；只有差距大于 {margin}"
        "（这是 “bank” 在 15 个同义的河岸句子之间的变化幅度，对别的词只是粗略的参照）"
        "才算作意思上的不同。\n"
        "- **共同的词。** 句子向量会因为两句话共有的词而靠近，而不仅仅因为意思相近；"
        "当共同的词可能解释哪几句最接近时，本页会把它们列出来。\n"
        "- **看名次，不只看余弦。** 一个 token 的向量朝另一个靠近时，也可能是所有 token "
        "都在互相靠近；在句中全部 token 里的名次能区分这两种情况。",
    },
}
