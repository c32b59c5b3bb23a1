"""Words of the Embeddings page (prefix ``emb.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "embeddings.title": {
        "en": "Embeddings: meaning as geometry",
        "zh": "词向量：把意义变成几何",
    },
    "embeddings.computed_with": {
        "en": "The lookup of your sentence's rows runs on the **{backend}** backend (switch it in "
        "the sidebar). Training runs in rust_core (its skipgram_sgd); cosines and the maps "
        "are NumPy.",
        "zh": "查出你句子中各词所在行的那一步由 **{backend}** 后端计算（可在侧边栏切换）；"
        "训练由 rust_core（其中的 skipgram_sgd）完成，余弦相似度和二维地图用 NumPy 计算。",
    },
    "embeddings.intro": {
        "en": "One-hot vectors are huge and mutually orthogonal: *dog* is exactly as far from "
        "*cat* as from *money*. An **embedding** gives every word type a short, dense vector "
        "instead — one row of a matrix $E$ with $V$ rows (the vocabulary) and $d$ columns "
        "(the embedding size). Multiplying a one-hot row vector by $E$ picks out one row:",
        "zh": "One-hot 向量又长又两两正交：狗（dog）与猫（cat）的距离，"
        "和它与钱（money）的距离完全一样。"
        "**词向量**（embedding）改为给每个词类型一个短而稠密的向量——矩阵 $E$ 中的一行；"
        "$E$ 有 $V$ 行（词表）和 $d$ 列（向量维数）。用 one-hot 行向量乘 $E$，结果正好是其中一行：",
    },
    "embeddings.intro.lookup": {
        "en": "In practice programs do not build the one-hot vector: they use the token id to "
        "**look up** row $i$ directly. And $E$ is not a fixed compression of the one-hot "
        "space; it is a table of parameters, learned from a prediction task like every other "
        "weight. Here $E$ is learned on this page, from the project's little corpus.",
        "zh": "所以实际程序通常不会去构造 one-hot 向量，而是直接用 token id **查表**取出"
        "第 $i$ 行。"
        "而且 $E$ 并不是对 one-hot 空间的某种固定压缩，它是一张参数表，"
        "和其他权重一样通过预测任务学出来。本页就在项目自带的小语料上现场学出 $E$。",
    },
    # --- training ---------------------------------------------------------------------------------
    "embeddings.train.title": {
        "en": "How E is learned: word2vec, trained right here",
        "zh": "E 是怎么学出来的：当场训练一个 word2vec",
    },
    "embeddings.train.body": {
        "en": "Training starts from **random** vectors. A language model would then adjust $E$ "
        "through its next-word loss; skip-gram word2vec uses an even simpler task: for each "
        "word $c$ and each neighbour $o$ within the window, score $\\mathbf u_o \\cdot "
        "\\mathbf e_c$ high, and score $k$ random “negative” words $j$ low. The gradient "
        "of that loss flows back into the rows of $E$. Words that keep the same company get "
        "pushed the same way, so they end up close — nobody tells the model that a dog and "
        "a cat are alike. Change a setting and the vectors are trained again (seeded, so the "
        "same settings always give the same $E$).",
        "zh": "训练从**随机**向量开始。语言模型会通过“预测下一个词”的损失来调整 $E$；"
        "skip-gram word2vec 用的是更简单的任务：对每个词 $c$ 和窗口内的每个邻居 $o$，"
        "让得分 $\\mathbf u_o \\cdot \\mathbf e_c$ 变高，"
        "同时让 $k$ 个随机抽取的“负样本”词 $j$ 的得分变低。这个损失的梯度会传回 $E$ 的各行。"
        "经常和同样的词相邻出现的词，会被推向同一个方向，最后彼此靠近——没有人告诉模型狗和猫相似。"
        "改动任何设置都会重新训练（随机种子固定，同样的设置总是得到同样的 $E$）。",
    },
    "embeddings.train.dim": {"en": "Vector size d", "zh": "向量维数 d"},
    "embeddings.train.epochs": {"en": "Epochs", "zh": "训练轮数"},
    "embeddings.train.epochs_help": {
        "en": "Passes over every (word, neighbour) pair of the corpus. 0 keeps the random start.",
        "zh": "把语料中所有（词，邻居）对完整过一遍算一轮。设为 0 则保留随机初始值。",
    },
    "embeddings.train.window": {"en": "Window (words on each side)", "zh": "窗口（每侧的词数）"},
    "embeddings.train.window_help": {
        "en": "How far a neighbour may be from the centre word to count as its context.",
        "zh": "邻居离中心词多远以内，才算作它的上下文。",
    },
    "embeddings.train.progress": {
        "en": "Training word2vec: epoch {epoch}/{epochs}, mean loss {loss}",
        "zh": "正在训练 word2vec：第 {epoch}/{epochs} 轮，平均损失 {loss}",
    },
    "embeddings.train.epoch": {"en": "epoch (0 = before training)", "zh": "轮次（0 = 训练前）"},
    "embeddings.train.loss": {"en": "mean loss per pair", "zh": "每对的平均损失"},
    "embeddings.metric.loss_before": {"en": "Loss before", "zh": "训练前损失"},
    "embeddings.metric.loss_after": {"en": "Loss after", "zh": "训练后损失"},
    "embeddings.train.facts": {
        "en": "Each epoch visits {pairs} (word, neighbour) pairs, each with k = {k} negatives. "
        "The starting loss is exactly (1 + k)·ln 2 = {start}: the output vectors start at "
        "zero, so every score is 0 and every guess a coin flip. E has V × d = {V} × {d} = "
        "{params} numbers.",
        "zh": "每一轮要处理 {pairs} 个（词，邻居）对，每对配 k = {k} 个负样本。"
        "起始损失恰好是 (1 + k)·ln 2 = {start}：输出向量从零开始，所以每个得分都是 0，"
        "每次判断都像抛硬币。E 共有 V × d = {V} × {d} = {params} 个数。",
    },
    "embeddings.train.untrained": {
        "en": "With 0 epochs nothing has been learned: every number below comes from the random "
        "start. Move the slider up and watch the structure appear.",
        "zh": "训练 0 轮就什么也没学到：下面的每个数字都来自随机初始值。"
        "把滑块往上拉，看看结构是怎样出现的。",
    },
    # --- lookup -----------------------------------------------------------------------------------
    "embeddings.lookup.title": {"en": "Looking up your sentence", "zh": "为你的句子查表"},
    "embeddings.empty": {
        "en": "The sentence in the sidebar has no words (punctuation and emoji are not counted "
        "here). Type a few words to look them up; the training, neighbours and maps still work.",
        "zh": "侧边栏里的句子没有词（这里不计标点和表情符号）。输入几个词就能查表；"
        "训练、近邻和地图部分照常可用。",
    },
    "embeddings.lookup.unknown": {
        "en": "Not in the learned vocabulary: {words}. This E only has rows for the corpus's "
        "words, so these have no vector (a real sub-word tokenizer splits most words into known "
        "pieces and marks the rest [UNK], as MiniLM does with most emoji and many Chinese "
        "characters).",
        "zh": "不在学到的词表里：{words}。这个 E 只为语料中出现过的词准备了行，"
        "所以它们没有向量（真正的子词分词器会把大多数词拆成已知的片段，其余的记为 [UNK]，"
        "MiniLM 对大多数表情符号和许多汉字就是这样做的）。",
    },
    "embeddings.lookup.body": {
        "en": "This E is the word2vec table trained on this page, over the corpus's V = "
        "{vocab} words, so its ids are not the toy model's of the Tokens page (a separate table "
        "of random rows). The **{backend}** backend's `embedding_lookup(E, ids)` returns one row "
        "of E per known word: a {n} × {d} matrix.",
        "zh": "这里的 E 是本页训练出的 word2vec 表，词表是语料里的 V = {vocab} 个词，"
        "所以它的编号与 Token 页玩具模型的编号不同（那是另一张随机行组成的表）。"
        "**{backend}** 后端的 `embedding_lookup(E, ids)` 为每个已知词取出 E 中的一行，"
        "得到一个 {n} × {d} 的矩阵。",
    },
    "embeddings.lookup.rows": {"en": "word", "zh": "词"},
    "embeddings.lookup.cols": {"en": "dimension", "zh": "维度"},
    "embeddings.lookup.value": {"en": "value", "zh": "数值"},
    "embeddings.lookup.capped": {
        "en": "Showing the first {shown} of {n} rows.",
        "zh": "只显示 {n} 行中的前 {shown} 行。",
    },
    "embeddings.lookup.check": {
        "en": "Checked live: the backend's rows are exactly E[ids].",
        "zh": "现场核对：后端取出的行与 E[ids] 完全相同。",
    },
    "embeddings.lookup.mismatch": {
        "en": "The backend's rows differ from E[ids] — a bug worth reporting.",
        "zh": "后端取出的行与 E[ids] 不一致——这是值得报告的 bug。",
    },
    "embeddings.cos.title": {
        "en": "Cosine similarity between your words",
        "zh": "你的词之间的余弦相似度",
    },
    "embeddings.cos.one_word": {
        "en": "Type at least two different known words to compare them.",
        "zh": "至少输入两个不同的已知词，才能比较它们。",
    },
    "embeddings.cos.word": {"en": "word", "zh": "词"},
    "embeddings.cos.closest": {
        "en": "The closest pair in your sentence: **{a}** and **{b}**, cos = {cos}. One-hot "
        "vectors would give 0 for every pair.",
        "zh": "你的句子里最接近的一对：**{a}** 和 **{b}**，cos = {cos}。"
        "若用 one-hot 向量，任意两个不同的词的余弦都是 0。",
    },
    "embeddings.cos.closest_tie": {
        "en": "The closest pairs in your sentence, tied at cos = {cos}: {pairs} ({count} "
        "pairs). One-hot vectors would give 0 for every pair.",
        "zh": "你的句子里最接近的几对并列，cos = {cos}：{pairs}（共 {count} 对）。"
        "若用 one-hot 向量，任意两个不同的词的余弦都是 0。",
    },
    # --- neighbours -------------------------------------------------------------------------------
    "embeddings.nn.title": {
        "en": "Nearest neighbours, before and after training",
        "zh": "训练前后的最近邻",
    },
    "embeddings.nn.body": {
        "en": "The words whose vectors point most nearly the same way as the chosen word's "
        "(highest cosine), at the random start and in the table the epochs above trained. "
        "The line below counts how many of them are of the chosen word's kind: that is how "
        "to see whether training gathered words of one kind.",
        "zh": "与所选词的向量方向最接近（余弦最大）的几个词：左边是随机初始值，右边是上面设定的"
        "轮数训练出的表。下面一行数出其中有几个和所选词同类——训练有没有把同类的词聚到一起，"
        "就看这个数。",
    },
    "embeddings.nn.word": {"en": "Word", "zh": "词"},
    "embeddings.nn.before": {"en": "Random start", "zh": "随机初始"},
    "embeddings.after.trained": {
        "en": "After {epochs} {epochs:epoch|epochs} of training",
        "zh": "训练 {epochs} 轮之后",
    },
    "embeddings.after.untrained": {
        "en": "After {epochs} epochs: still the random start",
        "zh": "训练 {epochs} 轮：仍是随机初始值",
    },
    "embeddings.nn.col.word": {"en": "neighbour", "zh": "近邻"},
    "embeddings.nn.col.kind": {"en": "kind", "zh": "类别"},
    "embeddings.nn.kind": {
        "en": "“{word}” is a word of kind *{kind}*.",
        "zh": "“{word}” 属于“{kind}”类。",
    },
    "embeddings.nn.summary": {
        "en": "Neighbours of the same kind: {before} of {k} at the random start, {after} of {k} "
        "after training.",
        "zh": "同类的近邻：随机初始时 {k} 个中有 {before} 个，训练后 {k} 个中有 {after} 个。",
    },
    "embeddings.nn.summary_untrained": {
        "en": "Neighbours of the same kind: {before} of {k} at the random start; with 0 epochs "
        "the right-hand table is that same random start ({after} of {k}), so nothing here "
        "was learned.",
        "zh": "同类的近邻：随机初始时 {k} 个中有 {before} 个；训练 0 轮时右边那张表就是同一个"
        "随机初始值（{k} 个中有 {after} 个），所以这里什么也没学到。",
    },
    # --- maps -------------------------------------------------------------------------------------
    "embeddings.map.title": {"en": "A map of the vectors (PCA)", "zh": "词向量地图（PCA）"},
    "embeddings.map.body": {
        "en": "The vectors have d dimensions; to look at them we project them onto the two "
        "directions along which they vary most (principal component analysis, one SVD). "
        "Colours are the kinds of words the corpus grammar used; the model never saw them.",
        "zh": "词向量有 d 维；为了看见它们，我们把它们投影到变化最大的两个方向上"
        "（主成分分析，一次 SVD）。颜色是生成语料的语法所用的词类，模型从未见过这些标签。",
    },
    "embeddings.map.mine": {
        "en": "Your sentence's words on the map are in bold: {words}.",
        "zh": "你句子里出现在地图上的词用粗体标出：{words}。",
    },
    "embeddings.map.mine_none": {
        "en": "None of your sentence's words is on the map (the corpus has none of them, or only "
        "function words, which are hidden): nothing is in bold.",
        "zh": "你句子里的词都不在地图上（语料里没有它们，或者只有被隐藏的虚词）："
        "没有词用粗体标出。",
    },
    "embeddings.map.function_words": {
        "en": "Include function words (the, his, at …)",
        "zh": "包括虚词（the、his、at ……）",
    },
    "embeddings.map.function_words_zh": {
        "en": "Include function characters (的, 在, 他 …)",
        "zh": "包括虚字（的、在、他……）",
    },
    "embeddings.map.before": {"en": "Random start", "zh": "随机初始"},
    "embeddings.map.category": {"en": "kind", "zh": "类别"},
    "embeddings.map.variance": {
        "en": "These two axes keep {share} of the variance; the rest is in the other dimensions.",
        "zh": "这两个坐标轴保留了 {share} 的方差，其余的在其他维度里。",
    },
    "embeddings.cat.person": {"en": "person", "zh": "人物"},
    "embeddings.cat.animal": {"en": "animal", "zh": "动物"},
    "embeddings.cat.food": {"en": "food", "zh": "食物"},
    "embeddings.cat.water": {"en": "water", "zh": "水域"},
    "embeddings.cat.place": {"en": "place", "zh": "场所"},
    "embeddings.cat.money": {"en": "money", "zh": "钱"},
    "embeddings.cat.bank": {"en": "bank (two senses)", "zh": "bank（两种意思）"},
    "embeddings.cat.time": {"en": "time", "zh": "时间"},
    "embeddings.cat.adjective": {"en": "adjective", "zh": "形容词"},
    "embeddings.cat.verb": {"en": "verb", "zh": "动词"},
    "embeddings.cat.function": {"en": "function word", "zh": "虚词"},
    "embeddings.cat.two_senses": {"en": "one character, two words", "zh": "一字两词"},
    # --- static vs contextual ---------------------------------------------------------------------
    "embeddings.static.title": {
        "en": "Static: one vector per word, whatever the sentence",
        "zh": "静态：一个词只有一个向量，不管句子是什么",
    },
    "embeddings.static.body": {
        "en": "In this corpus *bank* means two things: the side of a river and the place that "
        "keeps cash. An embedding table has one row per word type, so both senses share it.",
        "zh": "在这份语料里，*bank* 有两个意思：河岸，以及存钱的银行。"
        "词向量表每个词类型只有一行，所以两种意思只能共用这一行。",
    },
    "embeddings.static.same": {
        "en": "Looked up in “{a}” and in “{b}”, the two vectors for *bank* are identical "
        "(largest difference: {diff}). The lookup never reads the neighbours.",
        "zh": "在“{a}”和“{b}”里分别查出的 *bank* 向量完全相同（最大差值：{diff}）。"
        "查表时根本不看周围的词。",
    },
    "embeddings.static.lean.between": {
        "en": "Training had to give both senses this one vector, and it sits between them: mean "
        "cosine {water} with the water words, {money} with the money words.",
        "zh": "训练只能让两种意思共用这一个向量，它落在两者之间：与“水域”类词的平均余弦为 "
        "{water}，与“钱”类词为 {money}。",
    },
    "embeddings.static.lean.first": {
        "en": "Training had to give both senses this one vector, and here it leans to the water "
        "sense: mean cosine {water} with the water words against {money} with the money words. "
        "In a sentence about money, *bank* starts from a vector built mostly for the other "
        "sense.",
        "zh": "训练只能让两种意思共用这一个向量，这里它偏向“水域”的意思：与“水域”类词的平均余弦"
        "为 {water}，与“钱”类词只有 {money}。在讲钱的句子里，*bank* 的起点是一个主要为另一种"
        "意思而学的向量。",
    },
    "embeddings.static.lean.second": {
        "en": "Training had to give both senses this one vector, and here it leans to the money "
        "sense: mean cosine {money} with the money words against {water} with the water words. "
        "On a river, *bank* starts from a vector built mostly for the other sense.",
        "zh": "训练只能让两种意思共用这一个向量，这里它偏向“钱”的意思：与“钱”类词的平均余弦为 "
        "{money}，与“水域”类词只有 {water}。在河边的句子里，*bank* 的起点是一个主要为另一种"
        "意思而学的向量。",
    },
    "embeddings.static.lean.untrained": {
        "en": "Nothing is trained yet (0 epochs): these cosines come from the random start — "
        "mean {water} with the water words, {money} with the money words — and say nothing "
        "about either sense. Move the epochs slider up to see where training puts *bank*.",
        "zh": "还没有训练（0 轮）：这些余弦来自随机初始值——与“水域”类词的平均余弦为 {water}，"
        "与“钱”类词为 {money}——对哪种意思都说明不了什么。把训练轮数调高，"
        "看看训练把 *bank* 放到哪里。",
    },
    # --- the Chinese twin (the page's sentence is Chinese) --------------------------------------
    "embeddings.static.zh.body": {
        "en": "English *bank* means two things; Chinese writes them as two different words: "
        "**银行** keeps money, **河岸** (or 河边, 岸边) is the side of a river. That is worth "
        "noticing: what is one ambiguous word in one language can be two plain words in another, "
        "and a table of word vectors then needs no shared row for them. Segmented by "
        "characters, 银行 is 银 + 行 and 河岸 is 河 + 岸: no character in common. The "
        "ambiguity comes back one level down, though: **行** is háng in 银行 and xíng in "
        "步行 (to go on foot). One character, two words, one row.",
        "zh": "英文的 *bank* 有两个意思，中文却把它们写成两个不同的词：存钱的是**银行**，"
        "河的边上是**河岸**（或河边、岸边）。这一点值得留意：一种语言里的一个多义词，"
        "在另一种语言里可能是两个意思明确的词，词向量表也就不必让它们共用一行。按字切分时，"
        "银行 = 银 + 行，河岸 = 河 + 岸，没有共同的字。不过多义问题换了个层次又回来了："
        "**行**在“银行”里读 háng，在“步行”里读 xíng。一个字，两个词，只有一行。",
    },
    "embeddings.static.zh.same": {
        "en": "Looked up in “{a}” and in “{b}”, the two vectors for 行 are identical (largest "
        "difference: {diff}). The lookup never reads the neighbours.",
        "zh": "在“{a}”和“{b}”里分别查出的“行”向量完全相同（最大差值：{diff}）。"
        "查表时根本不看周围的字。",
    },
    "embeddings.static.zh.col.char": {"en": "character", "zh": "字"},
    "embeddings.static.zh.col.reading": {"en": "what the cosines show", "zh": "余弦说明了什么"},
    "embeddings.static.zh.char.yin": {"en": "银 (of 银行, bank)", "zh": "银（银行）"},
    "embeddings.static.zh.char.hang": {"en": "行 (银行 and 步行)", "zh": "行（银行、步行）"},
    "embeddings.static.zh.char.an": {"en": "岸 (of 河岸, river bank)", "zh": "岸（河岸）"},
    "embeddings.zh.lean.water": {
        "en": "nearer the water characters: mean {water} against {money}",
        "zh": "更接近“水域”类的字：平均 {water}，对比 {money}",
    },
    "embeddings.zh.lean.money": {
        "en": "nearer the money characters: mean {money} against {water}",
        "zh": "更接近“钱”类的字：平均 {money}，对比 {water}",
    },
    "embeddings.zh.lean.between": {
        "en": "between the two: mean {water} (water) and {money} (money) differ by less than 0.1",
        "zh": "介于两者之间：平均 {water}（水域）与 {money}（钱）相差不到 0.1",
    },
    "embeddings.zh.lean.untrained": {
        "en": "random start (0 epochs): {water} (water) and {money} (money) mean nothing yet",
        "zh": "随机初始值（0 轮）：{water}（水域）和 {money}（钱）还说明不了什么",
    },
    "embeddings.static.zh.pointer": {
        "en": "A Transformer starts from exactly such a table, then lets every token rewrite its "
        "vector from its context with self-attention, so that 行 after 银 and 行 after 步 end "
        "up different: a token embedding is not a contextual representation. The Real model "
        "pages show this with a trained model.",
        "zh": "Transformer 正是从这样一张表出发，再用自注意力让每个 token 根据上下文改写自己的"
        "向量，于是“银”后面的“行”和“步”后面的“行”最终变得不同：词向量（token embedding）"
        "不等于上下文表示。“真实模型”各页会用一个训练好的模型展示这一点。",
    },
    "embeddings.static.pointer": {
        "en": "A Transformer starts from exactly such a table, then lets every token rewrite its "
        "vector from its context with self-attention, so that the *bank* of a river and the "
        "*bank* of cash end up different: a token embedding is not a contextual representation. "
        "The Real model pages show this with a trained model.",
        "zh": "Transformer 正是从这样一张表出发，"
        "再用自注意力让每个 token 根据上下文改写自己的向量，"
        "于是河边的 *bank* 和存钱的 *bank* 最终变得不同：词向量（token embedding）"
        "不等于上下文表示。“真实模型”各页会用一个训练好的模型展示这一点。",
    },
    # --- the real model's table -----------------------------------------------------------------
    "embeddings.real.title": {
        "en": "A real table: MiniLM's 30,522 × 384 input embeddings",
        "zh": "一张真实的表：MiniLM 的 30,522 × 384 输入词向量",
    },
    "embeddings.real.body": {
        "en": "The trained encoder on the Real model pages starts from exactly such a matrix: "
        "one row of 384 numbers for each of its 30,522 WordPiece entries "
        "(embeddings.word_embeddings.weight), learned with the rest of the model on far more "
        "text than our little corpus. Type a word to see which rows point the same way.",
        "zh": "“真实模型”各页上那个训练好的编码器，正是从这样一个矩阵出发的："
        "它的 30,522 个 WordPiece 词条每个对应一行 384 个数"
        "（embeddings.word_embeddings.weight），是和模型其余部分一起、"
        "在比我们的小语料多得多的文本上学出来的。输入一个词，看看哪些行和它方向最接近。",
    },
    "embeddings.real.word": {"en": "Word (MiniLM vocabulary)", "zh": "词（MiniLM 词表）"},
    "embeddings.real.empty": {
        "en": "Type a word to look up its row.",
        "zh": "输入一个词，查出它所在的行。",
    },
    "embeddings.real.pieces": {
        "en": "“{word}” is not one entry of the vocabulary: WordPiece splits it into {pieces}. "
        "Showing the neighbours of its first piece, “{piece}”.",
        "zh": "“{word}” 不是词表中的一个词条：WordPiece 把它切成 {pieces}。"
        "下面显示它第一个子词 “{piece}” 的近邻。",
    },
    "embeddings.real.col.token": {"en": "WordPiece entry", "zh": "WordPiece 词条"},
    "embeddings.real.computing": {
        "en": "Comparing with all 30,522 rows…",
        "zh": "正在与全部 30,522 行比较…",
    },
    "embeddings.real.lookup": {
        "en": "“{piece}” is row {id}; the **{backend}** backend looked it up, and NumPy "
        "compared it by cosine with all {V} rows of the {d}-wide table. Its nearest rows:",
        "zh": "“{piece}” 是第 {id} 行；由 **{backend}** 后端查出这一行，再用 NumPy "
        "计算它与这张 {d} 列的表中全部 {V} 行的余弦。最近的几行：",
    },
    "embeddings.real.static": {
        "en": "These are static vectors: the row is the same whatever sentence the word is in, "
        "so *bank* has one row for the river and for the money. Only the layers above the "
        "table read the context.",
        "zh": "这些是静态向量：不管这个词出现在什么句子里，它的行都一样，"
        "所以河岸的 *bank* 和银行的 *bank* 共用一行。只有查表之后的那些层才会读取上下文。",
    },
    "embeddings.real.link": {
        "en": "See the same word become context-dependent: Contextual meaning",
        "zh": "看同一个词如何变得依赖上下文：上下文中的意义",
    },
    "embeddings.solved": {
        "en": "similarity: words used alike get nearby vectors, learned from raw text, in a few "
        "dimensions instead of |V|.",
        "zh": "相似性：用法相近的词得到相近的向量；这是从原始文本里学出来的，"
        "而且只需几个维度，而不是 |V| 维。",
    },
    "embeddings.hurts": {
        "en": "the meaning is static — *bank* has one vector in every sentence — and nothing "
        "here reads the sentence yet.",
        "zh": "意义是静态的——*bank* 在任何句子里都是同一个向量——"
        "而且到目前为止还没有任何东西在读整句话。",
    },
}
