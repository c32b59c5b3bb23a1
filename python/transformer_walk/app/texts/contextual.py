"""Words of the Contextual meaning page (prefix ``ctx.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "contextual.title": {"en": "Contextual meaning", "zh": "上下文中的意义"},
    "contextual.intro": {
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
    "contextual.pair.title": {
        "en": "One word, two sentences: same start, different end",
        "zh": "一个词，两个句子：起点相同，终点不同",
    },
    "contextual.pair.body": {
        "en": "Type two sentences that use one word, and the word. We compare the word's vectors "
        "in the two runs with the cosine (1 = same direction): first the rows of the input table, "
        "then the model's input after positions are added and normalised (layer 0), then the "
        "output of every layer. A word that WordPiece splits into several pieces is the mean of "
        "its pieces. Any two sentences move a word's vector somewhat, whatever its sense, so the "
        "pair is read against a calibration: many pairs of sentences, written and labelled for "
        "this page, that use one word in one sense or in two.",
        "zh": "输入两个都用到同一个词的句子，再输入这个词。我们用余弦相似度（1 表示方向完全相同）"
        "比较这个词在两次运行中的向量：先比较输入表中的行，再比较加上位置向量并归一化之后的"
        "模型输入（第 0 层），然后比较每一层的输出。如果 WordPiece 把这个词切成了好几个子词，"
        "就取这些子词向量的平均。无论词义是否相同，任意两个句子都会让这个词的向量有所变化，"
        "所以这一对要放到一组校准数据旁边来读：为本页编写并标注的许多句子对，"
        "其中同一个词有的意思相同，有的意思不同。",
    },
    "contextual.pair.a": {"en": "Sentence A", "zh": "句子 A"},
    "contextual.pair.b": {"en": "Sentence B", "zh": "句子 B"},
    "contextual.pair.word": {"en": "Word", "zh": "词"},
    "contextual.pair.empty": {
        "en": "Type two sentences and a word that occurs in both.",
        "zh": "请输入两个句子，以及一个在两句中都出现的词。",
    },
    "contextual.pair.not_found": {
        "en": "“{word}” does not occur in: {text}. Pick a word that both sentences contain.",
        "zh": "“{word}” 没有出现在：{text}。请选一个两句都包含的词。",
    },
    "contextual.pair.pieces": {
        "en": "“{word}” is {a} in sentence A and {b} in sentence B (# = position, [CLS] is #1).",
        "zh": "“{word}” 在句子 A 中是 token {a}，在句子 B 中是 {b}（# 表示位置，[CLS] 是 #1）。",
    },
    "contextual.metric.word": {
        "en": "cos of the input-table rows",
        "zh": "输入表中两行的余弦",
    },
    "contextual.metric.embedded": {"en": "cos at layer 0", "zh": "第 0 层的余弦"},
    "contextual.metric.embedded_help": {
        "en": "The input row plus its position vector, after LayerNorm: what layer 1 reads.",
        "zh": "输入表中的行加上位置向量，再经过 LayerNorm：第 1 层读到的就是它。",
    },
    "contextual.metric.last": {"en": "cos after layer 6", "zh": "第 6 层之后的余弦"},
    "contextual.pair.same_rows": {
        "en": "The word has the same token ids in both sentences, so the lookup returns the very "
        "same rows: a cosine of exactly 1. Layer 0 adds a position vector and normalises, "
        "which changes the word's vector only where it sits at a different position; the "
        "layers that read the context do the rest.",
        "zh": "这个词在两句中的 token id 相同，所以查表取出的是完全相同的行：余弦正好是 1。"
        "第 0 层再加上位置向量并做归一化，只有当这个词在两句中的位置不同时，"
        "它的向量才会因此改变；其余的差别都来自读取上下文的那些层。",
    },
    "contextual.pair.same_position": {
        "en": "Here the word even sits at the same position (#{position}) in both sentences, so "
        "the position vector added to it is the same too and layer 0 is still identical: "
        "every difference after it comes from reading the context.",
        "zh": "这里这个词在两句中甚至处在同一个位置（#{position}），所以加上的位置向量也相同，"
        "第 0 层仍然完全一样：此后的每一点差别都来自对上下文的读取。",
    },
    "contextual.pair.other_rows": {
        "en": "Here the word was split into different token ids in the two sentences, so even "
        "the input rows differ. Try a word that is written the same way in both.",
        "zh": "这里这个词在两句中被切成了不同的 token id，所以连输入表中的行都不一样。"
        "试试一个在两句中写法完全相同的词。",
    },
    "contextual.axis.layer": {"en": "layer", "zh": "层"},
    "contextual.axis.cosine": {
        "en": "cos of the two “{word}” vectors",
        "zh": "两个 “{word}” 向量的余弦",
    },
    "contextual.axis.series": {"en": "vector", "zh": "向量"},
    "contextual.pair.path": {
        "en": "In A and B the two “{word}” vectors have a cosine of {first} at layer 0 and "
        "{last} after layer 6.",
        "zh": "在 A 和 B 中，两个 “{word}” 向量在第 0 层的余弦是 {first}，第 6 层之后是 {last}。",
    },
    "contextual.pair.path_dip": {
        "en": "In A and B the two “{word}” vectors have a cosine of {first} at layer 0 and "
        "{last} after layer 6 (lowest: {lowest}, at layer {at}).",
        "zh": "在 A 和 B 中，两个 “{word}” 向量在第 0 层的余弦是 {first}，第 6 层之后是 {last}"
        "（最低 {lowest}，出现在第 {at} 层）。",
    },
    # --- the calibration -------------------------------------------------------------------------
    "contextual.cal.computing": {
        "en": "Measuring the {n} calibration sentences with MiniLM (once per server)…",
        "zh": "正在用 MiniLM 计算 {n} 个校准句子（每个服务器只算一次）…",
    },
    "contextual.cal.pair_title": {
        "en": "Your pair beside the labelled pairs",
        "zh": "你的这一对，放在标注过的句子对旁边",
    },
    "contextual.cal.pair_body.en": {
        "en": "The word is read against the English calibration: {words} ambiguous words, "
        "{n_same} pairs of sentences that use the word in the same sense and {n_different} "
        "that use it in two senses. The chart follows your pair's cosine through the layers "
        "beside the lowest cosine of any same-sense pair, the highest of any different-sense "
        "pair, and the median of each kind.",
        "zh": "这个词对照的是英文校准数据：{words} 个多义词，{n_same} 对句子中这个词意思相同，"
        "{n_different} 对中意思不同。图中逐层画出你这一对的余弦，旁边是所有同义句子对中最低的"
        "余弦、所有异义句子对中最高的余弦，以及两类各自的中位数。",
    },
    "contextual.cal.pair_body.zh": {
        "en": "The word has a Chinese character, so it is read against the Chinese calibration: "
        "{words} ambiguous words, {n_same} pairs of sentences that use the word in the same "
        "sense and {n_different} that use it in two senses. The chart follows your pair's cosine "
        "through the layers beside the lowest cosine of any same-sense pair, the highest of any "
        "different-sense pair, and the median of each kind.",
        "zh": "这个词含有汉字，所以对照的是中文校准数据：{words} 个多义词，{n_same} 对句子中"
        "这个词意思相同，{n_different} 对中意思不同。图中逐层画出你这一对的余弦，旁边是所有"
        "同义句子对中最低的余弦、所有异义句子对中最高的余弦，以及两类各自的中位数。",
    },
    "contextual.cal.series.yours": {"en": "your A and B", "zh": "你的 A 与 B"},
    "contextual.cal.series.same_min": {
        "en": "same sense: lowest of the pairs",
        "zh": "同义：各对中最低",
    },
    "contextual.cal.series.same_median": {"en": "same sense: median", "zh": "同义：中位数"},
    "contextual.cal.series.different_median": {"en": "two senses: median", "zh": "异义：中位数"},
    "contextual.cal.series.different_max": {
        "en": "two senses: highest of the pairs",
        "zh": "异义：各对中最高",
    },
    "contextual.cal.verdict.different": {
        "en": "At layer {layer}, where the calibration tells senses apart best (AUC {auc}), "
        "“{word}” in A and B has a cosine of {cos}: lower than in every one of the {n_same} "
        "same-sense pairs (the lowest: {same_min}), and {beyond} of the {n_different} "
        "different-sense pairs were lower still. By this calibration, A and B use “{word}” in "
        "**different senses**.",
        "zh": "在第 {layer} 层（校准数据在这一层最能区分词义，AUC 为 {auc}），“{word}” 在 A 和 B "
        "中的余弦是 {cos}：比全部 {n_same} 对同义句子都低（其中最低是 {same_min}），"
        "而 {n_different} 对异义句子中有 {beyond} 对比它还低。按这组校准数据，A 和 B 中的 "
        "“{word}” 是**不同的意思**。",
    },
    "contextual.cal.verdict.same": {
        "en": "At layer {layer}, where the calibration tells senses apart best (AUC {auc}), "
        "“{word}” in A and B has a cosine of {cos}: higher than in every one of the "
        "{n_different} different-sense pairs (the highest: {different_max}), and {beyond_same} "
        "of the {n_same} same-sense pairs were higher still. By this calibration, A and B use "
        "“{word}” in **the same sense**.",
        "zh": "在第 {layer} 层（校准数据在这一层最能区分词义，AUC 为 {auc}），“{word}” 在 A 和 B "
        "中的余弦是 {cos}：比全部 {n_different} 对异义句子都高（其中最高是 {different_max}），"
        "而 {n_same} 对同义句子中有 {beyond_same} 对比它还高。按这组校准数据，A 和 B 中的 "
        "“{word}” 是**同一个意思**。",
    },
    "contextual.cal.verdict.cannot": {
        "en": "At layer {layer}, where the calibration tells senses apart best (AUC {auc}), "
        "“{word}” in A and B has a cosine of {cos}. Same-sense pairs went as low as {same_min} "
        "and different-sense pairs as high as {different_max}; {beyond} of the {n_different} "
        "different-sense pairs were lower than yours and {beyond_same} of the {n_same} "
        "same-sense pairs higher. Your cosine is neither below every same-sense pair nor above "
        "every different-sense pair: **these numbers cannot tell** whether A and B use "
        "“{word}” in one sense or in two.",
        "zh": "在第 {layer} 层（校准数据在这一层最能区分词义，AUC 为 {auc}），“{word}” 在 A 和 B "
        "中的余弦是 {cos}。同义句子对最低到过 {same_min}，异义句子对最高到过 {different_max}；"
        "{n_different} 对异义句子中有 {beyond} 对比你的低，{n_same} 对同义句子中有 "
        "{beyond_same} 对比你的高。你的余弦既没有低于所有同义句子对，也没有高于所有异义句子对："
        "**这些数字无法判断** A 和 B 中的 “{word}” 是同一个意思还是两个意思。",
    },
    "contextual.cal.sep_title": {
        "en": "How well do MiniLM's layers separate senses?",
        "zh": "MiniLM 的各层能把词义分开到什么程度？",
    },
    "contextual.cal.sep_body": {
        "en": "For every layer, the AUC: the chance that a same-sense pair of the calibration "
        "has a higher cosine than a different-sense pair, both picked at random (1 = the cosine "
        "always puts them in the right order, 0.5 = no better than a coin). The table adds the "
        "accuracy of the best single cosine threshold at that layer.",
        "zh": "对每一层给出 AUC：从校准数据中随机各取一对同义句子和一对异义句子，"
        "同义那一对余弦更高的概率（1 表示余弦总能排对顺序，0.5 表示和抛硬币一样）。"
        "表中还给出在这一层用一个最佳余弦阈值所能达到的准确率。",
    },
    "contextual.cal.lang.en": {"en": "English pairs", "zh": "英文句子对"},
    "contextual.cal.lang.zh": {"en": "Chinese pairs", "zh": "中文句子对"},
    "contextual.cal.axis.auc": {"en": "AUC, same vs two senses", "zh": "AUC（同义与异义）"},
    "contextual.cal.axis.language": {"en": "calibration", "zh": "校准数据"},
    "contextual.cal.col.auc": {"en": "AUC, {language}", "zh": "{language}的 AUC"},
    "contextual.cal.col.accuracy": {"en": "accuracy, {language}", "zh": "{language}的准确率"},
    "contextual.cal.sep.some.en": {
        "en": "English: the layers separate senses only in part, best at layer {layer} (AUC "
        "{auc}; after layer {last}, {last_auc}), over {n_same} same-sense and {n_different} "
        "different-sense pairs of {words} words: many pairs of the two kinds overlap, so many "
        "cosines carry no verdict.",
        "zh": "英文：各层只能部分地把词义分开，第 {layer} 层最好（AUC {auc}；第 {last} 层之后为 "
        "{last_auc}），依据是 {words} 个词的 {n_same} 对同义和 {n_different} 对异义句子："
        "两类句子对有很多重叠，所以许多余弦给不出结论。",
    },
    "contextual.cal.sep.chance.en": {
        "en": "English: the layers do little better than chance, at best AUC {auc} (layer "
        "{layer}; after layer {last}, {last_auc}), over {n_same} same-sense and {n_different} "
        "different-sense pairs of {words} words.",
        "zh": "英文：各层并不比随机猜测好多少，最好也只有 AUC {auc}（第 {layer} 层；"
        "第 {last} 层之后为 {last_auc}），依据是 {words} 个词的 {n_same} 对同义和 "
        "{n_different} 对异义句子。",
    },
    "contextual.cal.sep.clear.zh": {
        "en": "Chinese: the layers separate senses, best at layer {layer} (AUC {auc}; after "
        "layer {last}, {last_auc}), over {n_same} same-sense and {n_different} different-sense "
        "pairs of {words} words — though {unknown} of the words, and {unknown_share} of all the "
        "tokens of their sentences, are [UNK] to MiniLM.",
        "zh": "中文：各层能把词义分开，第 {layer} 层最好（AUC {auc}；第 {last} 层之后为 "
        "{last_auc}），依据是 {words} 个词的 {n_same} 对同义和 {n_different} 对异义句子——"
        "尽管其中 {unknown} 个词、以及这些句子全部 token 中的 {unknown_share}，"
        "在 MiniLM 看来都是 [UNK]。",
    },
    "contextual.cal.sep.some.zh": {
        "en": "Chinese: the layers separate senses only in part, best at layer {layer} (AUC "
        "{auc}; after layer {last}, {last_auc}), over {n_same} same-sense and {n_different} "
        "different-sense pairs of {words} words; {unknown} of the words, and {unknown_share} of "
        "all the tokens of their sentences, are [UNK] to MiniLM.",
        "zh": "中文：各层只能部分地把词义分开，第 {layer} 层最好（AUC {auc}；第 {last} 层之后为 "
        "{last_auc}），依据是 {words} 个词的 {n_same} 对同义和 {n_different} 对异义句子；"
        "其中 {unknown} 个词、以及这些句子全部 token 中的 {unknown_share}，"
        "在 MiniLM 看来都是 [UNK]。",
    },
    "contextual.cal.sep.chance.zh": {
        "en": "Chinese: the layers do little better than chance, at best AUC {auc} (layer "
        "{layer}; after layer {last}, {last_auc}), over {n_same} same-sense and {n_different} "
        "different-sense pairs of {words} words. MiniLM's vocabulary was built for English: "
        "{unknown} of these {words} words, and {unknown_share} of all the tokens of their "
        "sentences, are [UNK] to it — one and the same input row whatever the character. So a "
        "verdict on a Chinese pair is rare here.",
        "zh": "中文：各层并不比随机猜测好多少，最好也只有 AUC {auc}（第 {layer} 层；"
        "第 {last} 层之后为 {last_auc}），依据是 {words} 个词的 {n_same} 对同义和 "
        "{n_different} 对异义句子。MiniLM 的词表是为英文建的：这 {words} 个词中有 {unknown} 个，"
        "以及这些句子全部 token 中的 {unknown_share}，在它看来都是 [UNK]——不管是哪个字，"
        "都是输入表中同一行。所以在这里，中文句子对很少能得到结论。",
    },
    "contextual.cal.sep.clear.en": {
        "en": "English: the layers separate senses, best at layer {layer} (AUC {auc}; after "
        "layer {last}, {last_auc}), over {n_same} same-sense and {n_different} different-sense "
        "pairs of {words} words ({unknown_share} of their sentences' tokens are [UNK]).",
        "zh": "英文：各层能把词义分开，第 {layer} 层最好（AUC {auc}；第 {last} 层之后为 "
        "{last_auc}），依据是 {words} 个词的 {n_same} 对同义和 {n_different} 对异义句子"
        "（这些句子的 token 中有 {unknown_share} 是 [UNK]）。",
    },
    "contextual.cal.source": {
        "en": "The calibration: {sentences} sentences (English and Chinese), written and labelled "
        "by this project for this page, each ambiguous word in two senses with three sentences "
        "each; every two sentences of one word make a pair. Shipped with the package "
        "(topics/data/senses.tsv, CC0), nothing is downloaded.",
        "zh": "校准数据：{sentences} 个句子（英文和中文），由本项目为本页编写并标注，每个多义词"
        "取两个意思，每个意思三句；同一个词的任意两句构成一对。随软件包一起提供"
        "（topics/data/senses.tsv，CC0），无需下载。",
    },
    # --- sentence similarity ---------------------------------------------------------------------
    "contextual.sim.title": {"en": "Whole sentences compared", "zh": "比较整句话"},
    "contextual.sim.body": {
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
    "contextual.sim.input": {"en": "Sentences, one per line", "zh": "句子，每行一个"},
    "contextual.sim.capped": {
        "en": "Only the first {shown} of the {n} sentences are compared.",
        "zh": "{n} 个句子中只比较前 {shown} 个。",
    },
    "contextual.sim.too_few": {
        "en": "Type at least two sentences, one per line.",
        "zh": "请至少输入两个句子，每行一个。",
    },
    "contextual.sim.computing": {
        "en": "Embedding {n} sentences…",
        "zh": "正在计算 {n} 个句子的向量…",
    },
    "contextual.sim.sentence": {"en": "sentence", "zh": "句子"},
    "contextual.sim.closest.none": {
        "en": "The closest pair: “{a}” and “{b}” (cos = {cos}). They share no word: what brings "
        "them together is not spelling.",
        "zh": "最接近的一对：“{a}” 和 “{b}”（cos = {cos}）。它们没有共同的词："
        "让它们靠近的不是字面上的重合。",
    },
    "contextual.sim.closest.little": {
        "en": "The closest pair: “{a}” and “{b}” (cos = {cos}). They share only {words} (word "
        "overlap {jaccard}: shared words over all distinct words of the two).",
        "zh": "最接近的一对：“{a}” 和 “{b}”（cos = {cos}）。它们共同的词只有 {words}"
        "（词重合度 {jaccard}：共同的词占两句全部不同词的比例）。",
    },
    "contextual.sim.closest.shared": {
        "en": "The closest pair: “{a}” and “{b}” (cos = {cos}). They share {words} (word overlap "
        "{jaccard}: shared words over all distinct words of the two), so part of that closeness "
        "may be the shared words rather than the meaning.",
        "zh": "最接近的一对：“{a}” 和 “{b}”（cos = {cos}）。它们有共同的词 {words}"
        "（词重合度 {jaccard}：共同的词占两句全部不同词的比例），所以这份接近可能有一部分"
        "来自共同的词，而不是意思。",
    },
    "contextual.sim.word_sep": {"en": ", ", "zh": "、"},
    "contextual.sim.pull": {
        "en": "“{a}” is closer to “{b}” (cos = {cos_b}) than to “{c}” (cos = {cos_c}). It shares "
        "{words_b} with the first (overlap {jaccard_b}) and only {words_c} with the "
        "second (overlap {jaccard_c}): sentence embeddings are pulled together by shared words, "
        "not only by meaning. Does this order match what the sentences mean?",
        "zh": "“{a}” 离 “{b}”（cos = {cos_b}）比离 “{c}”（cos = {cos_c}）更近。它和前者有共同的词 "
        "{words_b}（重合度 {jaccard_b}），和后者只有 {words_c}（重合度 {jaccard_c}）："
        "句子向量不仅被意思拉近，也被共同的词拉近。这个远近顺序符合句子的意思吗？",
    },
    "contextual.sim.pull_none": {
        "en": "“{a}” is closer to “{b}” (cos = {cos_b}) than to “{c}” (cos = {cos_c}). It shares "
        "{words_b} with the first (overlap {jaccard_b}) and none with the second: "
        "sentence embeddings are pulled together by shared words, not only by meaning. Does "
        "this order match what the sentences mean?",
        "zh": "“{a}” 离 “{b}”（cos = {cos_b}）比离 “{c}”（cos = {cos_c}）更近。它和前者有共同的词 "
        "{words_b}（重合度 {jaccard_b}），和后者一个也没有："
        "句子向量不仅被意思拉近，也被共同的词拉近。这个远近顺序符合句子的意思吗？",
    },
    "contextual.sim.note": {
        "en": "Similarity here is what the model learned from the sentence pairs it was trained "
        "on — a useful signal, not a judgement of truth or meaning.",
        "zh": "这里的相似度，是模型从训练用的句子对中学到的——一个有用的信号，"
        "而不是对真假或意义的裁决。",
    },
    # --- one token across the layers --------------------------------------------------------------
    "contextual.track.title": {
        "en": "One token across the layers: does it move toward another?",
        "zh": "一个 token 穿过各层：它会向另一个 token 靠近吗？",
    },
    "contextual.track.body": {
        "en": "For the sentence in the sidebar, every token's hidden state at every layer (0 to "
        "6) is projected onto the same two directions — one PCA fitted on all of them "
        "together, so positions can be compared across layers. The two tokens you pick are "
        "drawn as paths, numbered by layer; the other tokens are grey dots. [CLS] and [SEP] "
        "are left out of the picture.",
        "zh": "对侧边栏里的句子，把每个 token 在每一层（0 到 6）的隐藏状态投影到同样的两个方向上——"
        "对全部向量一起做一次 PCA，所以不同层的位置可以互相比较。你选的两个 token 画成路径，"
        "并标出层号；其他 token 是灰色的点。图中不包括 [CLS] 和 [SEP]。",
    },
    "contextual.track.too_short": {
        "en": "The sidebar sentence needs at least two tokens besides [CLS] and [SEP] to "
        "follow one toward another.",
        "zh": "侧边栏里的句子除了 [CLS] 和 [SEP] 之外至少要有两个 token，"
        "才能跟踪一个向另一个的变化。",
    },
    "contextual.track.token": {"en": "Token to follow", "zh": "要跟踪的 token"},
    "contextual.track.toward": {"en": "Toward", "zh": "是否靠近"},
    "contextual.track.by_attention": {
        "en": "This sentence has no “{preferred}”, so “Toward” starts on “{b}”, the token “{a}” "
        "gives the most attention to, averaged over all {layers} layers × {heads} heads (mean "
        "weight {weight}; [CLS], [SEP], [UNK] and tokens without a letter or digit left "
        "out).",
        "zh": "这个句子里没有 “{preferred}”，所以“是否靠近”一开始选的是 “{b}”："
        "把全部 {layers} 层 × {heads} 个头平均起来，“{a}” 给它的注意力最多"
        "（平均权重 {weight}；不计 [CLS]、[SEP]、[UNK] 以及不含字母或数字的 token）。",
    },
    "contextual.track.token_axis": {"en": "token", "zh": "token"},
    "contextual.track.variance": {
        "en": "The two axes keep {share} of the variance of these {m} tokens' vectors over the 7 "
        "layers: the picture is a shadow. The numbers below are measured in the full 384 "
        "dimensions.",
        "zh": "这两个坐标轴保留了这 {m} 个 token 在 7 层中向量方差的 {share}：这张图只是一个投影。"
        "下面的数字是在完整的 384 维空间里测量的。",
    },
    "contextual.track.col.cos": {"en": "cosine", "zh": "余弦"},
    "contextual.track.col.dist": {"en": "Euclidean distance", "zh": "欧氏距离"},
    "contextual.track.col.rank": {
        "en": "rank among the other tokens (1 = nearest)",
        "zh": "在其他 token 中的名次（1 = 最近）",
    },
    "contextual.track.closer": {
        "en": "Yes, by the cosine and by the rank: “{a}” and “{b}” go from {first} at layer 0 to "
        "{last} after layer 6 (closest: {best}, at layer {at}), and “{b}” ends as the nearest of "
        "the {m} other tokens.",
        "zh": "按余弦和名次来看都是：“{a}” 和 “{b}” 从第 0 层的 {first} 变成第 6 层之后的 {last}"
        "（最接近时为 {best}，在第 {at} 层），而且最后 “{b}” 是其他 {m} 个 token 中最近的。",
    },
    "contextual.track.all_closer": {
        "en": "The cosine rose, but the rank does not single “{b}” out: “{a}” and “{b}” go from "
        "{first} at layer 0 to {last} after layer 6 (closest: {best}, at layer {at}), yet “{b}” "
        "goes from number {rank0} to number {rank} of the {m} other tokens in closeness to "
        "“{a}”.",
        "zh": "余弦上升了，但名次并没有把 “{b}” 单独挑出来：“{a}” 和 “{b}” 从第 0 层的 {first} "
        "变成第 6 层之后的 {last}（最接近时为 {best}，在第 {at} 层），可 “{b}” 最后在其他 {m} "
        "个 token 中从第 {rank0} 名变成第 {rank} 名。",
    },
    "contextual.track.alike": {
        "en": "Meanwhile “{a}”'s mean cosine to the other tokens went from {o_first} to {o_last}: "
        "the tokens of the sentence grew alike.",
        "zh": "与此同时，“{a}” 与其他 token 的平均余弦从 {o_first} 变成了 {o_last}：句中的 token "
        "都变得更像了。",
    },
    "contextual.track.not_alike": {
        "en": "“{a}”'s mean cosine to the other tokens went from {o_first} to {o_last}: the "
        "tokens as a whole did not grow alike.",
        "zh": "“{a}” 与其他 token 的平均余弦从 {o_first} 变成了 {o_last}：整体上 token 并没有变得"
        "更像。",
    },
    "contextual.track.not_closer": {
        "en": "Not by the cosine: “{a}” and “{b}” go from {first} at layer 0 to {last} after "
        "layer 6 (closest: {best}, at layer {at}).",
        "zh": "按余弦来看，并没有：“{a}” 和 “{b}” 从第 0 层的 {first} 变成第 6 层之后的 {last}"
        "（最接近时为 {best}，在第 {at} 层）。",
    },
    "contextual.track.caveat": {
        "en": "Careful with the reading. In a trained encoder all tokens of a sentence tend to "
        "grow more alike in the upper layers (they share more and more context), so compare "
        "with the rank column: does “{b}” become nearer to “{a}” than the other tokens are? "
        "And nearness is not reference: a hidden state mixes many relations at once.",
        "zh": "解读时要小心。在训练好的编码器里，一句话中的所有 token 到了较高的层往往会变得更相似"
        "（它们共享的上下文越来越多），所以请对照名次那一列：“{b}” 是否比其他 token "
        "更接近 “{a}”？而且“接近”不等于“指代”：一个隐藏状态同时混合了许多种关系。",
    },
    "contextual.solved": {
        "en": "context: the same word gets different vectors in different sentences, and whole "
        "sentences can be compared by meaning.",
        "zh": "上下文：同一个词在不同句子里得到不同的向量，整句话也能按意思相互比较。",
    },
    "contextual.hurts": {
        "en": "all this costs n² attention scores per head and layer — how fast can it run? The "
        "Speed race page races the backends.",
        "zh": "这一切的代价是每个头、每一层都要算 n² 个注意力分数——它能跑多快？"
        "“速度对决”页让几个后端比一比。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "contextual.tex.embedding": {"en": "token embedding", "zh": "token 的词向量"},
    "contextual.tex.contextual": {"en": "contextual representation", "zh": "上下文表示"},
    # --- how we know ------------------------------------------------------------------------------
    "contextual.know.title": {
        "en": "How we know: the controls on this page",
        "zh": "我们凭什么这么说：本页用到的对照",
    },
    "contextual.know.body": {
        "en": "- **Labelled pairs, not one control.** Two sentences drift apart anyway, sense "
        "or no sense: different neighbours change every hidden state, by an amount that depends "
        "on the word. So your pair is read against many pairs written and labelled for this "
        "page; a verdict is given only where your cosine lies outside what every pair of the "
        "other kind produced, and otherwise the page says the numbers cannot tell.\n"
        "- **Shared words.** Sentence embeddings are pulled together by the words two sentences "
        "share, not only by what they mean; the page names the shared words when they could "
        "explain which sentences come out closest.\n"
        "- **The rank, not only the cosine.** When one token's vector moves toward another, "
        "every token may be moving toward every other; the rank among all the sentence's "
        "tokens tells the two cases apart.",
        "zh": "- **用一组标注过的句子对，而不是一个对照句。** 不管意思是否相同，两句话里的同一个词"
        "都会渐渐分开：邻居不同，每个隐藏状态都会变，变多少还取决于这个词。所以你的这一对要和"
        "许多为本页编写并标注的句子对相比；只有当你的余弦落在另一类句子对全都没有到过的范围，"
        "才给出结论，否则本页会说这些数字无法判断。\n"
        "- **共同的词。** 句子向量会因为两句话共有的词而靠近，而不仅仅因为意思相近；"
        "当共同的词可能解释哪几句最接近时，本页会把它们列出来。\n"
        "- **看名次，不只看余弦。** 一个 token 的向量朝另一个靠近时，也可能是所有 token "
        "都在互相靠近；在句中全部 token 里的名次能区分这两种情况。",
    },
}
