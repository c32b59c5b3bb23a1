"""Words of the Next-token page (prefix ``nt.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "next_token.title": {
        "en": "Next token: how a decoder writes",
        "zh": "下一个 token：解码器如何写作",
    },
    "next_token.intro": {
        "en": "A decoder such as SmolLM2-135M reads a prompt and gives every token of its "
        "vocabulary a score $z$ for coming next. softmax turns the scores into probabilities; "
        "one token is picked, appended, and the whole thing repeats. This page uses its own "
        "prompt rather than the sidebar's sentence: a sentence that is complete gives the "
        "model little to continue, an open one such as “Tom loves his” shows the choice.",
        "zh": "像 SmolLM2-135M 这样的解码器读入一段提示，给词表里的每个 token 打一个分数 $z$，"
        "表示它接在后面的可能性。softmax 把分数变成概率；选出一个 token，接到末尾，再重复整个过程。"
        "本页用自己的提示，而不是侧边栏的句子：一句完整的话留给模型续写的余地很小，"
        "而像 “Tom loves his” 这样没说完的开头，才能看出它在几个词之间如何选择。",
    },
    "next_token.prompt": {"en": "Prompt", "zh": "提示"},
    "next_token.prompt_help": {
        "en": "Up to 2,000 characters, on several lines if you like (Ctrl+Enter to apply). "
        "Tokens are byte-level BPE pieces: ␣ marks a space, ⏎ a line break, and ⟨E4 BD→你⟩ a "
        "token holding only some of a character's bytes.",
        "zh": "最多 2,000 个字符，可以分多行（按 Ctrl+Enter 应用）。token 是字节级 BPE 的片段："
        "␣ 表示空格，⏎ 表示换行，⟨E4 BD→你⟩ 表示只含某个字符一部分字节的 token。",
    },
    "next_token.chat": {
        "en": "Chat: wrap it in the model's chat template",
        "zh": "对话：套上模型自带的对话模板",
    },
    "next_token.chat_help": {
        "en": "SmolLM2-135M-Instruct was tuned on conversations written with special tokens "
        "(<|im_start|>user … <|im_end|>). On: your prompt becomes the user's message, in the "
        "template the model file carries, and the model writes the assistant's answer. Off: it "
        "simply continues your text.",
        "zh": "SmolLM2-135M-Instruct 是用带特殊 token 的对话（<|im_start|>user … <|im_end|>）"
        "微调的。打开：你的提示成为用户的话，套上模型文件自带的模板，模型写的是助手的回答。"
        "关闭：模型只是接着你的文字往下写。",
    },
    "next_token.empty": {
        "en": "The prompt is empty: type a few words to see what the model would write next.",
        "zh": "提示是空的：输入几个词，就能看到模型接下来会写什么。",
    },
    "next_token.too_long": {
        "en": "The prompt and its continuation have {n} tokens, the model's context is {context}: "
        "shorten the prompt.",
        "zh": "提示加上续写共有 {n} 个 token，而模型的上下文只有 {context} 个：请缩短提示。",
    },
    "next_token.tokens": {"en": "Tokens ({n}): {tokens}", "zh": "token（{n} 个）：{tokens}"},
    "next_token.metric.n": {"en": "n (tokens, not words)", "zh": "n（token 数，不是词数）"},
    "next_token.metric.vocab": {"en": "vocabulary", "zh": "词表大小"},
    "next_token.metric.entropy": {"en": "uncertainty (bits)", "zh": "不确定性（比特）"},
    "next_token.candidates.title": {
        "en": "The next token's candidates",
        "zh": "下一个 token 的候选",
    },
    "next_token.temperature": {"en": "Temperature T", "zh": "温度 T"},
    "next_token.temperature_help": {
        "en": "The bars are softmax(z / T). T → 0 puts all the probability on the best token "
        "(greedy); T = 1 is the model's own distribution; a large T flattens it.",
        "zh": "条形是 softmax(z / T)。T → 0 时所有概率都集中到最好的 token（贪心）；"
        "T = 1 是模型自己的分布；T 越大，分布越平。",
    },
    "next_token.top_k": {"en": "top-k (0 = no cut)", "zh": "top-k（0 = 不截断）"},
    "next_token.top_k_help": {
        "en": "Keep only the k best tokens, then renormalise.",
        "zh": "只保留最好的 k 个 token，再重新归一化。",
    },
    "next_token.top_p": {"en": "top-p (1 = no cut)", "zh": "top-p（1 = 不截断）"},
    "next_token.top_p_help": {
        "en": "Keep the fewest best tokens whose probabilities reach p, then renormalise.",
        "zh": "保留概率加起来达到 p 的最少几个最好的 token，再重新归一化。",
    },
    "next_token.axis.token": {"en": "candidate token", "zh": "候选 token"},
    "next_token.axis.prob": {
        "en": "probability after T, top-k, top-p",
        "zh": "经温度、top-k、top-p 后的概率",
    },
    "next_token.greedy_note": {
        "en": "T = 0: greedy. The best token gets probability 1, every other 0.",
        "zh": "T = 0：贪心。最好的 token 概率为 1，其余都是 0。",
    },
    "next_token.shape_reading": {
        "en": "At T = {t}, “{best}” takes {p} of the probability; {kept} of {vocab} tokens "
        "can still be drawn.",
        "zh": "在 T = {t} 时，“{best}” 占 {p} 的概率；"
        "{vocab} 个 token 中还有 {kept} 个可能被抽到。",
    },
    "next_token.next": {"en": "next (greedy)", "zh": "下一个（贪心）"},
    "next_token.sample": {"en": "sample", "zh": "抽样"},
    "next_token.generate": {"en": "generate {count}", "zh": "生成 {count} 个"},
    "next_token.reset": {"en": "clear", "zh": "清空"},
    "next_token.buttons_help": {
        "en": "“next” appends the best token; “sample” draws one with the temperature, top-k and "
        "top-p set above; “generate {count}” samples {count} in a row (greedy at T = 0) and "
        "shows each as it comes. At most {most} new tokens are kept.",
        "zh": "“下一个”接上最好的 token；“抽样”按上面设定的温度、top-k、top-p 抽一个；"
        "“生成 {count} 个”连续抽 {count} 个（T = 0 时为贪心），每出来一个就显示一个。"
        "最多保留 {most} 个新 token。",
    },
    "next_token.text.title": {"en": "The text so far", "zh": "目前的文字"},
    "next_token.text.none": {
        "en": "Nothing generated yet: press a button above.",
        "zh": "还没有生成任何内容：按上面的按钮。",
    },
    "next_token.full": {
        "en": "{most} new tokens is this page's limit: clear to start again.",
        "zh": "本页最多生成 {most} 个新 token：清空后可以重新开始。",
    },
    "next_token.stopped": {
        "en": "The model wrote its end token: it considers the text finished.",
        "zh": "模型写出了结束 token：它认为这段文字已经结束。",
    },
    "next_token.streaming": {
        "en": "Generating token {i} of {count}…",
        "zh": "正在生成第 {i} / {count} 个 token…",
    },
    "next_token.scoring": {"en": "Reading the prompt…", "zh": "正在读取提示…"},
    "next_token.steps.title": {"en": "Each step's candidates", "zh": "每一步的候选"},
    "next_token.steps.pick": {"en": "Step", "zh": "步骤"},
    "next_token.steps.label": {
        "en": "{i}: {piece} (p = {p})",
        "zh": "第 {i} 步：{piece}（p = {p}）",
    },
    "next_token.col.token": {"en": "token", "zh": "token"},
    "next_token.col.model_p": {"en": "model P (T = 1)", "zh": "模型概率（T = 1）"},
    "next_token.col.sample_p": {"en": "P sampled from", "zh": "抽样时的概率"},
    "next_token.col.picked": {"en": "picked", "zh": "选中"},
    "next_token.attn.title": {
        "en": "Causal attention as the text grows",
        "zh": "随文字增长的因果注意力",
    },
    "next_token.attn.body": {
        "en": "Row i is what token i looks at. The grey cells above the diagonal are **masked**: "
        "a token may not look at tokens after it, which do not exist yet when it is generated. "
        "Each generated token adds one row and one column. Attention weights show where a head "
        "reads from; they are not a linguistic analysis.",
        "zh": "第 i 行是第 i 个 token 看向哪里。对角线上方的灰色格子是**被遮住的**：一个 token "
        "不能看它后面的 token——生成它时，那些 token 还不存在。每生成一个 token，就多一行一列。"
        "注意力权重只说明一个头从哪里读取信息，并不是语言学上的分析。",
    },
    "next_token.attn.layer": {"en": "Layer", "zh": "层"},
    "next_token.attn.head": {"en": "Head", "zh": "头"},
    "next_token.attn.capped": {
        "en": "The text has {n} tokens; the matrix shows the first {shown} (a causal token's "
        "row does not depend on the tokens after it, so these rows are exact).",
        "zh": "文字共有 {n} 个 token；矩阵只显示前 {shown} 个（因果注意力中，一个 token "
        "的那一行不依赖它后面的 token，所以这些行是准确的）。",
    },
    "next_token.axis.query": {"en": "query (token looking)", "zh": "查询（正在看的 token）"},
    "next_token.axis.key": {"en": "key (token looked at)", "zh": "键（被看的 token）"},
    "next_token.axis.weight": {"en": "weight", "zh": "权重"},
    "next_token.loss.title": {
        "en": "The training objective along the prompt",
        "zh": "沿着提示看训练目标",
    },
    "next_token.loss.body": {
        "en": "Training shows the model a text and asks, at every position at once, for the "
        "next token: the loss is $-\\log P(x_t \\mid x_{<t})$ of the token that actually "
        "comes (eq. 7 summed over t). A bar near 0 is a token the model expected; a tall bar "
        "surprised it. The first token has no bar: nothing came before it. A token guessed from "
        "only one or two before it has little to go on, which is one reason a very short prompt "
        "can score a high perplexity.",
        "zh": "训练时，模型看到一段文字，在每个位置上同时被要求预测下一个 token："
        "损失是真正出现的那个 token 的 $-\\log P(x_t \\mid x_{<t})$（对 t 求和即式 7）。"
        "接近 0 的条形表示模型早有预料，高的条形表示它很意外。第一个 token 没有条形："
        "它前面什么也没有。"
        "只凭前面一两个 token 去猜，依据很少——这是很短的提示困惑度可能很高的原因之一。",
    },
    "next_token.axis.predicted": {"en": "predicted token", "zh": "被预测的 token"},
    "next_token.axis.loss": {"en": "loss −log P (nats)", "zh": "损失 −log P（奈特）"},
    "next_token.metric.ppl": {"en": "perplexity exp(mean loss)", "zh": "困惑度 exp(平均损失)"},
    "next_token.metric.loss": {"en": "mean loss (nats)", "zh": "平均损失（奈特）"},
    "next_token.ppl.none": {
        "en": "A one-token prompt has no next token inside it to score: add a word.",
        "zh": "只有一个 token 的提示里没有可以评分的“下一个 token”：再加一个词。",
    },
    "next_token.ppl.sure": {
        "en": "A perplexity of {ppl}: the model found this text almost entirely predictable.",
        "zh": "困惑度为 {ppl}：模型觉得这段文字几乎完全可以预测。",
    },
    "next_token.ppl.between": {
        "en": "A perplexity of {ppl}: on average the model was as unsure as if it chose evenly "
        "among {ppl} tokens (of {vocab}).",
        "zh": "困惑度为 {ppl}：平均而言，模型的不确定程度相当于在 {ppl} 个 token 中平均地选一个"
        "（词表共 {vocab} 个）。",
    },
    "next_token.ppl.lost": {
        "en": "A perplexity of {ppl}: on average as unsure as a uniform choice among {share} of "
        "its {vocab} tokens.",
        "zh": "困惑度为 {ppl}：平均而言，相当于在全部 {vocab} 个 token 的 {share} 里平均地选一个。",
    },
    "next_token.ppl.one_token": {
        "en": "Most of it comes from one token: **{token}** has a loss of {loss} nats of the "
        "{total} in all, guessed with {before} {before:token|tokens} before it. Without it the "
        "perplexity would be {rest}.",
        "zh": "其中大部分来自一个 token：**{token}** 的损失是 {loss} 奈特（总共 {total}），"
        "猜它的时候前面只有 {before} 个 token。去掉它，困惑度会是 {rest}。",
    },
    "next_token.speed.title": {
        "en": "Reading in one pass, writing one at a time",
        "zh": "一次读完，逐个写出",
    },
    "next_token.speed.body": {
        "en": "The prompt's tokens are all known, so one forward pass scores them together, as "
        "training does (the prefill). A new token needs the one before it, so generation runs "
        "one forward per token (the decode): sequential, whatever the hardware.",
        "zh": "提示里的 token 全都已知，所以一次前向计算就能同时处理它们，训练也是这样（预填充）。"
        "新 token 需要依赖前一个 token，所以生成时每个 token 都要单独做一次前向计算（解码）："
        "无论硬件如何，这一步都是顺序的。",
    },
    "next_token.speed.prefill": {
        "en": "the text, one pass ({n} tokens)",
        "zh": "整段文字，一次处理（{n} 个 token）",
    },
    "next_token.speed.decode": {
        "en": "new tokens, one at a time ({n} tokens)",
        "zh": "新 token，逐个生成（{n} 个 token）",
    },
    "next_token.axis.rate": {"en": "tokens per second", "zh": "每秒 token 数"},
    "next_token.speed.pending": {
        "en": "Press “generate”: that call times its first step, which reads the whole text in "
        "one pass, and each new token after it, the same way.",
        "zh": "按“生成”按钮：这次调用会用同样的方式计时，先是一次读完整段文字的第一步，"
        "再是之后逐个生成的每个新 token。",
    },
    "next_token.speed.faster": {
        "en": "Measured here, in one call to generate: the text was read at {prefill} tokens/s, "
        "new tokens came at {decode} tokens/s — reading was {ratio}× faster per token, because "
        "its tokens were computed together.",
        "zh": "本机在同一次生成调用中实测：读文字每秒 {prefill} 个 token，生成新 token 每秒 "
        "{decode} 个——按每个 token 算，读取快了 {ratio} 倍，因为它的 token 是一起计算的。",
    },
    "next_token.speed.slower": {
        "en": "Measured here, in one call to generate: the text was read at {prefill} tokens/s "
        "and new tokens came at {decode} tokens/s ({ratio}×), slower per token this time. One "
        "call's timings move with whatever else the machine is doing: generate again to see "
        "whether it holds.",
        "zh": "本机在同一次生成调用中实测：读文字每秒 {prefill} 个 token，"
        "生成新 token 每秒 {decode} 个（{ratio} 倍），这一次按每个 token 算反而更慢。"
        "单次调用的计时会随机器上其他负载而变化：再生成一次，看看是否依旧如此。",
    },
    "next_token.speed.similar": {
        "en": "Measured here, in one call to generate: the text was read at {prefill} tokens/s "
        "and new tokens came at {decode} tokens/s ({ratio}×), not clearly faster per token: a "
        "text this short gives the one pass little to share; try a longer one.",
        "zh": "本机在同一次生成调用中实测：读文字每秒 {prefill} 个 token，"
        "生成新 token 每秒 {decode} 个（{ratio} 倍），按每个 token 算没有明显更快："
        "文字太短，一次处理的优势不明显；试试更长的提示。",
    },
    "next_token.cache.title": {"en": "The key/value cache", "zh": "键/值缓存"},
    "next_token.cache.body": {
        "en": "So that each new token costs one position, not the whole text again, the model "
        "keeps every layer's keys and values: per token $2 \\cdot L \\cdot h_{{kv}} \\cdot "
        "d_{{head}} \\cdot 4$ bytes = $2 \\cdot {layers} \\cdot {h_kv} \\cdot {d_head} \\cdot 4$ "
        "= {per_token} (float32).",
        "zh": "为了让每个新 token 只需计算一个位置，而不是把整段文字重新算一遍，"
        "模型会保存每一层的键和值："
        "每个 token 占 $2 \\cdot L \\cdot h_{{kv}} \\cdot d_{{head}} \\cdot 4$ 字节 = "
        "$2 \\cdot {layers} \\cdot {h_kv} \\cdot {d_head} \\cdot 4$ = {per_token}（float32）。",
    },
    "next_token.metric.cache_token": {"en": "KV cache per token", "zh": "每个 token 的键/值缓存"},
    "next_token.metric.cache_total": {
        "en": "KV cache now ({n} tokens)",
        "zh": "当前键/值缓存（{n} 个 token）",
    },
    "next_token.cache.gqa": {
        "en": "Grouped-query attention: {h} query heads share {h_kv} key/value heads, so the "
        "cache is {total} instead of {total_full} with {h} key/value heads — {saving} less.",
        "zh": "分组查询注意力：{h} 个查询头共用 {h_kv} 个键/值头，所以缓存是 {total}，"
        "而不是有 {h} 个键/值头时的 {total_full}——少了 {saving}。",
    },
    "next_token.solved": {
        "en": "one model, one rule — score, pick, append — writes text as long as its "
        "context allows.",
        "zh": "一个模型、一条规则——打分、选择、接上——就能一直写下去，直到填满上下文窗口。",
    },
    "next_token.hurts": {
        "en": "writing is sequential: each token waits for the one before, and the cache grows "
        "with every token.",
        "zh": "写作是顺序的：每个 token 都要等前一个，而缓存随每个 token 增长。",
    },
}
