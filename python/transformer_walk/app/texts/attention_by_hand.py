"""Words of the Attention by hand page (prefix ``abh.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    # --- the setting ------------------------------------------------------------------------------
    "attention_by_hand.title": {"en": "Attention by hand", "zh": "手算注意力"},
    "attention_by_hand.intro": {
        "en": "Attention does not treat every word alike. Depending on what the current token "
        "needs, it gives the other tokens different amounts of weight and then mixes their "
        "information in those proportions. It always takes the same three moves, in this order:",
        "zh": "注意力不会一视同仁地对待每个词。它根据当前 token 此刻的需要，给其他 token "
        "分配不同的权重，再按这些比例把它们的信息混合起来。它总是按同样的顺序走这三步：",
    },
    "attention_by_hand.move.match": {
        "en": "**Match** — how well does the query fit each key?",
        "zh": "**匹配**——查询与每个键有多契合？",
    },
    "attention_by_hand.move.normalise": {
        "en": "**Normalise** — softmax turns the scores into weights that add up to 1.",
        "zh": "**归一化**——softmax 把分数变成加起来等于 1 的权重。",
    },
    "attention_by_hand.move.aggregate": {
        "en": "**Aggregate** — the weights blend the values into one new vector.",
        "zh": "**聚合**——用这些权重把值向量融合成一个新向量。",
    },
    "attention_by_hand.qkv.title": {
        "en": "Why three vectors? Q, K and V as a search",
        "zh": "为什么需要三种向量？把 Q、K、V 想成一次检索",
    },
    "attention_by_hand.qkv.body": {
        "en": "Picture a small database of key → value records. You type a query; the system "
        "compares it with every key to decide which records are relevant, and hands you back "
        "what those records hold — their values. Attention does the same with vectors, except "
        "that it never returns a single record: it returns a blend, with more of the records "
        "that matched better.",
        "zh": "想象一个存放“键 → 值”记录的小数据库。你提交一个查询，系统先拿它和每一个键比对，"
        "判断哪些记录相关，再把这些记录里的内容——也就是它们的值——交给你。注意力对向量做的是"
        "同一件事，只不过它从不只返回一条记录，而是返回一个混合结果：匹配得越好的记录，"
        "在其中占的比例越大。",
    },
    "attention_by_hand.qkv.col.vector": {"en": "vector", "zh": "向量"},
    "attention_by_hand.qkv.col.role": {"en": "the question it answers", "zh": "它回答的问题"},
    "attention_by_hand.qkv.q": {"en": "What am I looking for?", "zh": "我在寻找什么信息？"},
    "attention_by_hand.qkv.k": {
        "en": "What can I be matched on?",
        "zh": "别人凭什么特征来匹配我？",
    },
    "attention_by_hand.qkv.v": {
        "en": "If I am picked, what do I actually hand over?",
        "zh": "如果我被选中，我实际交出什么信息？",
    },
    "attention_by_hand.qkv.caveat": {
        "en": "Hold the analogy loosely. Q, K and V carry no meaning assigned by hand: they are "
        "three learned projections of the same token vectors, $Q = XW^Q$, $K = XW^K$, "
        "$V = XW^V$, and training decides what each of the three spaces comes to encode.",
        "zh": "这个类比只用来帮助直觉，不要过度解读。Q、K、V 并没有被人为赋予固定的语言学含义："
        "它们是同一组 token 向量经过三个可学习矩阵得到的投影，$Q = XW^Q$、$K = XW^K$、"
        "$V = XW^V$，每个空间最终编码什么，由训练决定。",
    },
    # --- step 1 -----------------------------------------------------------------------------------
    "attention_by_hand.step1.title": {
        "en": "Step 1 · “his” asks, every token answers: the scores",
        "zh": "第 1 步 · “his” 发问，每个 token 作答：打分",
    },
    "attention_by_hand.step1.body": {
        "en": "Split *Tom loves his dog* into four tokens — $x_1$ = Tom, $x_2$ = loves, "
        "$x_3$ = his, $x_4$ = dog — so $n = 4$ (one token per word here; a tokenizer may cut a "
        "rarer word into several, and $n$ counts tokens). We follow the third one, **his**, "
        "through a single attention head. Its query $\\boldsymbol{q}_{\\text{his}}$ says "
        "what *his* is looking for in this head; every token, *his* included, offers a key "
        "$\\boldsymbol{k}_j$. The dot product of the query with a key, divided by "
        "$\\sqrt{d_k}$, is that key's score.",
        "zh": "把 *Tom loves his dog* 切成四个 token——$x_1$ = Tom，$x_2$ = loves，"
        "$x_3$ = his，$x_4$ = dog——所以 $n = 4$（这里恰好一词一个 token；分词器可能把较少见的词"
        "切成几个，$n$ 数的是 token）。我们在一个注意力头里跟踪第三个 token "
        "**his**。它的查询向量 $\\boldsymbol{q}_{\\text{his}}$ 表示 *his* 在这个头里要找什么；"
        "每个 token（包括 *his* 自己）都提供一个键向量 $\\boldsymbol{k}_j$。查询与某个键做点积，"
        "再除以 $\\sqrt{d_k}$，就是这个键的分数。",
    },
    "attention_by_hand.step1.encoder_note": {
        "en": "This is encoder-style self-attention with no causal mask, so *his* may look at "
        "*dog*, which comes after it. In a decoder's masked self-attention, the future token "
        "*dog* would be blocked before the softmax.",
        "zh": "这里演示的是编码器式的自注意力，没有因果遮罩，所以 *his* 可以看到排在它后面的 "
        "*dog*。如果是解码器里带遮罩的自注意力，未来位置的 *dog* 会在 softmax 之前被屏蔽。",
    },
    "attention_by_hand.editor.title": {
        "en": "**Edit the numbers** — one row per key: its score $s_j$ and its value vector "
        "$\\boldsymbol{v}_j$.",
        "zh": "**修改数字**——每行对应一个键：它的分数 $s_j$ 和值向量 $\\boldsymbol{v}_j$。",
    },
    "attention_by_hand.col.token": {"en": "token", "zh": "token"},
    "attention_by_hand.col.s": {"en": "score sⱼ", "zh": "分数 sⱼ"},
    "attention_by_hand.col.s_help": {
        "en": "How well the query of “his” matches this token's key (already divided by √d_k).",
        "zh": "“his” 的查询与这个 token 的键的匹配程度（已经除以 √d_k）。",
    },
    "attention_by_hand.col.v_help": {
        "en": "One entry of this token's value vector: what it hands over when it gets weight.",
        "zh": "这个 token 值向量的一个分量：它获得权重时交出的信息。",
    },
    "attention_by_hand.editor.reset": {
        "en": "Back to the article's numbers",
        "zh": "恢复文章里的数值",
    },
    "attention_by_hand.mine.title": {
        "en": "Your sentence, the same three steps",
        "zh": "你的句子，同样的三步",
    },
    "attention_by_hand.mine.body": {
        "en": "Everything above works the article's own example — *Tom loves his dog* with its "
        "chosen scores — whatever the sidebar says. Here the same function takes your sentence "
        "instead, with the numbers of the toy model the next pages open up: head 1 of its first "
        "block (d_model = {d_model}, h = {h}, so each value vector has d_k = {d_k} numbers), "
        "scores already divided by √d_k.",
        "zh": "上面的一切演算的都是文章自己的例子——*Tom loves his dog* 和为它挑选的分数——"
        "与侧边栏里写的句子无关。这里同一个函数换成你的句子，用的是后面几页要拆开看的玩具模型的"
        "数：它第一个块里的第 1 个头（d_model = {d_model}，h = {h}，所以每个值向量有 "
        "d_k = {d_k} 个数），分数已经除以 √d_k。",
    },
    "attention_by_hand.mine.query": {"en": "Query token", "zh": "查询 token"},
    "attention_by_hand.mine.top": {
        "en": "Largest weight from “{query}”",
        "zh": "“{query}” 给出的最大权重",
    },
    "attention_by_hand.mine.z": {"en": "the weighted sum", "zh": "加权和"},
    "attention_by_hand.mine.check": {
        "en": "The same z as the toy's own head output, to within {diff}: this page's three "
        "steps are what the model computes.",
        "zh": "与玩具模型自己算出的这个头的输出相同，误差在 {diff} 以内："
        "本页的三步正是模型所做的计算。",
    },
    "attention_by_hand.mine.caveat": {
        "en": "The toy's weights are random, not trained: which token wins here says nothing about "
        "your sentence's meaning — only how the arithmetic goes.",
        "zh": "玩具模型的权重是随机的，没有经过训练：这里哪个 token 胜出，与你句子的意思无关——"
        "它只展示计算是怎么进行的。",
    },
    "attention_by_hand.illustrative": {
        "en": "These scores are **illustrative**: picked to make the arithmetic easy to follow, "
        "not read out of a trained Transformer. A real head computes them from learned "
        "$W^Q$ and $W^K$.",
        "zh": "这些分数只是**示意**：为了让计算过程一目了然而挑选，并不是从训练好的 Transformer "
        "中读出来的。真实的注意力头会用学到的 $W^Q$ 和 $W^K$ 把它们算出来。",
    },
    "attention_by_hand.edited": {
        "en": "You have edited the scores of {tokens}: the steps below use your numbers, not the "
        "article's. **Back to the article's numbers** brings its illustrative scores back.",
        "zh": "你修改了 {tokens} 的分数：下面的步骤用的是你的数字，而不是文章里的。点击"
        "**恢复文章里的数值**即可换回文章的示意分数。",
    },
    "attention_by_hand.reveal.then": {
        "en": "You made your guess on the scores s = {scores}, and they have changed since: the "
        "verdict below judges it on those scores. To predict for the scores shown now, press "
        "**Hide and guess again**.",
        "zh": "你是在分数 s = {scores} 下做出猜测的，之后分数改了：下面的判定仍按那组分数来评。"
        "想对现在的分数重新预测，请点击**隐藏答案，重新猜**。",
    },
    "attention_by_hand.err.not_a_number": {
        "en": "Please check {cells}: empty or not a number.",
        "zh": "请检查{cells}：为空或不是数字。",
    },
    "attention_by_hand.err.not_finite": {
        "en": "Please check {cells}: empty, NaN or infinite — each entry must be a finite number.",
        "zh": "请检查{cells}：为空、NaN 或无穷大——每一项都必须是有限的数。",
    },
    "attention_by_hand.err.shape": {
        "en": "The table needs one row per token, each with a score and two value entries.",
        "zh": "表格需要每个 token 一行，每行包含一个分数和两个值分量。",
    },
    "attention_by_hand.err.cell_s": {"en": "the score of “{token}”", "zh": "“{token}”的分数"},
    "attention_by_hand.err.cell_v": {
        "en": "entry {col} of the value of “{token}”",
        "zh": "“{token}”的值向量第 {col} 个分量",
    },
    "attention_by_hand.err.fallback": {
        "en": "Until then, the steps below use the article's numbers.",
        "zh": "在改正之前，下面的步骤先使用文章里的原始数值。",
    },
    # --- predict, then reveal ---------------------------------------------------------------------
    "attention_by_hand.predict.title": {"en": "Predict, then reveal", "zh": "先预测，再揭晓"},
    "attention_by_hand.predict.top": {
        "en": "Which token will “his” give the most weight to?",
        "zh": "“his” 会把最大的权重分给哪个 token？",
    },
    "attention_by_hand.predict.weight": {
        "en": "And what weight will {token} get?",
        "zh": "{token} 会得到多大的权重？",
    },
    "attention_by_hand.predict.weight_help": {
        "en": "If all four scores were equal, each token would get 0.25.",
        "zh": "如果四个分数都相等，每个 token 都会得到 0.25。",
    },
    "attention_by_hand.predict.reveal": {"en": "Reveal the weights", "zh": "揭晓权重"},
    "attention_by_hand.predict.hint": {
        "en": "Commit to a guess before you look — a wrong guess is what makes softmax stick.",
        "zh": "先给出你的猜测再看答案——猜错一次，对 softmax 的印象反而最深。",
    },
    "attention_by_hand.locked": {
        "en": "Steps 2 and 3 — the softmax and the weighted sum — appear once you reveal, and "
        "then the same three steps on your own sentence.",
        "zh": "揭晓之后，这里会出现第 2 步和第 3 步：softmax 与加权求和，然后是在你自己的句子上"
        "走同样的三步。",
    },
    "attention_by_hand.reveal.answer": {
        "en": "**{token}** takes the largest share of what “{query}” gathers: α = **{weight}**.",
        "zh": "在 “{query}” 汇集的信息中，**{token}** 占的份额最大：α = **{weight}**。",
    },
    "attention_by_hand.reveal.answer_tie": {
        "en": "**{token}** share the largest share of what “{query}” gathers: α = **{weight}** "
        "each.",
        "zh": "在 “{query}” 汇集的信息中，**{token}** 并列占最大的份额：每个 α = **{weight}**。",
    },
    "attention_by_hand.reveal.right_tie": {
        "en": "Right: {token} is one of the tied winners.",
        "zh": "猜对了：{token} 是并列第一之一。",
    },
    "attention_by_hand.reveal.wrong_tie": {
        "en": "You guessed {guess}; the tied winners are {token}.",
        "zh": "你猜的是 {guess}，并列第一的是 {token}。",
    },
    "attention_by_hand.reveal.no_guess": {
        "en": "You did not pick a token — next time, try a guess first.",
        "zh": "你没有选择 token——下次不妨先猜一猜。",
    },
    "attention_by_hand.reveal.right": {
        "en": "Right: {token} wins.",
        "zh": "猜对了：{token} 胜出。",
    },
    "attention_by_hand.reveal.wrong": {
        "en": "You guessed {guess}; the winner is {token}.",
        "zh": "你猜的是 {guess}，胜出的是 {token}。",
    },
    "attention_by_hand.reveal.tie": {
        "en": "A tie: {top} score {s_top} each, so softmax gives them exactly the same weight — "
        "it has no favourite among equals.",
        "zh": "平局：{top} 的分数都是 {s_top}，所以 softmax 给它们的权重完全相同——"
        "在相等的分数之间它没有偏爱。",
    },
    "attention_by_hand.reveal.tie_shown": {
        "en": "A tie as shown: {top} each get {weight} to three decimals — their scores, "
        "{scores}, differ too little for the difference in weight to show.",
        "zh": "按显示的精度是平局：{top} 的权重保留三位小数都是 {weight}——它们的分数 {scores} "
        "相差太小，权重上的差别显示不出来。",
    },
    "attention_by_hand.reveal.close": {
        "en": "Not a clear win: {top} scores {s_top} and the runner-up {second} scores "
        "{s_second}, a gap of {gap}, so {top} gets only exp({gap}) ≈ **{ratio}×** the weight of "
        "{second} — under the {clear}× this page calls a clear win. Small gaps in score stay "
        "small gaps in weight.",
        "zh": "算不上明显胜出：{top} 的分数是 {s_top}，第二名 {second} 是 {s_second}，相差 {gap}，"
        "所以 {top} 的权重只有 {second} 的 exp({gap}) ≈ **{ratio} 倍**——不到本页所说明显胜出的 "
        "{clear} 倍。分数差得少，权重也差得少。",
    },
    "attention_by_hand.reveal.clear": {
        "en": "A clear win — at least the {clear}× this page asks for. Why so clear? Softmax "
        "turns **differences** of scores into **ratios** of weights: {top} scores {s_top} and "
        "the runner-up {second} scores {s_second}, a gap of {gap}, so {top} gets "
        "exp({gap}) ≈ **{ratio}×** as much weight as {second}.",
        "zh": "明显胜出——达到了本页要求的 {clear} 倍以上。为什么差这么多？softmax 把分数之间的"
        "**差**变成权重之间的**比**：{top} 的分数是 {s_top}，第二名 {second} 是 {s_second}，"
        "相差 {gap}，所以 {top} 得到的权重约是 {second} 的 exp({gap}) ≈ **{ratio} 倍**。",
    },
    "attention_by_hand.reveal.weight_close": {
        "en": "Your guess for {token}, {guess}, is within {tolerance} of the true {weight}. "
        "Well calibrated!",
        "zh": "你对 {token} 的猜测 {guess} 与真实值 {weight} 相差不到 {tolerance}，估得很准！",
    },
    "attention_by_hand.reveal.weight_low_other": {
        "en": "You guessed {guess} for {token}; it gets {weight}, more than you guessed: softmax "
        "leaves a key with a lower score more than it may seem.",
        "zh": "你猜 {token} 得到 {guess}，实际是 {weight}，比你猜的多：对分数较低的键，softmax "
        "留给它的份额也可能比看上去多。",
    },
    "attention_by_hand.reveal.weight_low": {
        "en": "You guessed {guess} for {token}; it gets {weight}. Guesses often come out low: a "
        "gap in score that looks modest becomes a large share after the exponential.",
        "zh": "你猜 {token} 得到 {guess}，实际是 {weight}。很多人都会猜低：分数上看似不大的差距，"
        "经过指数运算后会变成悬殊的份额。",
    },
    "attention_by_hand.reveal.weight_high": {
        "en": "You guessed {guess} for {token}; it gets {weight}. The other keys still keep part "
        "of the weight: as long as the scores are finite, softmax leaves every key a share.",
        "zh": "你猜 {token} 得到 {guess}，实际是 {weight}。其余的键仍然分走了一部分权重："
        "只要分数是有限的，softmax 就会给每个键留下一份。",
    },
    "attention_by_hand.reveal.again": {"en": "Hide and guess again", "zh": "隐藏答案，重新猜"},
    # --- steps 2 and 3 ----------------------------------------------------------------------------
    "attention_by_hand.step2.title": {
        "en": "Step 2 · Softmax turns scores into weights",
        "zh": "第 2 步 · softmax 把分数变成权重",
    },
    "attention_by_hand.step2.body": {
        "en": "Scores can be any real numbers. Softmax exponentiates each one — so every weight "
        "is positive and larger scores pull ahead quickly — and divides by the total, so the "
        "weights add up to 1 and read as shares of attention.",
        "zh": "分数可以是任意实数。softmax 先对每个分数取指数——这样每个权重都是正数，"
        "而且分数越大领先得越快——再除以总和，让权重加起来等于 1，可以读作注意力的“份额”。",
    },
    "attention_by_hand.step2.stable": {
        "en": "In practice the largest score $m$ is subtracted first. It cancels between "
        "numerator and denominator, so the weights do not change, but $\\exp$ never receives a "
        "large argument and cannot overflow. Worked out for the key with the largest weight:",
        "zh": "实际计算时会先减去最大的分数 $m$。它在分子和分母中相互抵消，所以权重不变，"
        "但 $\\exp$ 永远不会接到很大的自变量，也就不会溢出。以权重最大的键为例：",
    },
    "attention_by_hand.chart.token": {"en": "key", "zh": "键"},
    "attention_by_hand.chart.weight": {
        "en": "weight α ({query} → key)",
        "zh": "权重 α（{query} → 键）",
    },
    "attention_by_hand.metric.max": {"en": "largest score m", "zh": "最大分数 m"},
    "attention_by_hand.metric.exp_sum": {"en": "Σ exp(sⱼ − m)", "zh": "Σ exp(sⱼ − m)"},
    "attention_by_hand.metric.weight_sum": {"en": "Σ αⱼ (always 1)", "zh": "Σ αⱼ（恒为 1）"},
    "attention_by_hand.step3.title": {
        "en": "Step 3 · The weights blend the values",
        "zh": "第 3 步 · 用权重融合值向量",
    },
    "attention_by_hand.step3.body": {
        "en": "The weights decide **how much** to take from each token; the value vectors decide "
        "**what** is taken. The new representation of *his* is the weighted sum of all four "
        "value rows: every token contributes, in proportion to its weight.",
        "zh": "权重决定从每个 token 拿**多少**，值向量决定拿的是**什么**。*his* 的新表示就是四个"
        "值向量的加权和：每个 token 都有贡献，贡献的大小与它的权重成正比。",
    },
    "attention_by_hand.step3.article_check": {
        "en": "With the article's numbers the result is z_his ≈ [0.853, 0.292].",
        "zh": "使用文章里的数值时，结果是 z_his ≈ [0.853, 0.292]。",
    },
    "attention_by_hand.fused": {
        "en": "**One fused call agrees.** With the scores as a 1 × n query matrix, $K = I_n$ and "
        "scale 1, the kernel's scores are exactly ours, and the **{backend}** backend's "
        "`attention(q, K, V, scale=1.0)` returns z = {z}. Adding up α_j v_j by hand gave "
        "{total}; the largest difference is {diff}.",
        "zh": "**一次融合调用，结果一致。** 把分数当作 1 × n 的查询矩阵，"
        "令 $K = I_n$、缩放系数为 1，核函数内部算出的分数就和我们的完全相同；**{backend}** 后端的 "
        "`attention(q, K, V, scale=1.0)` 返回 z = {z}。手工把 α_j v_j 逐项相加得到 {total}，"
        "两者最大相差 {diff}。",
    },
    # --- caveats and heads ------------------------------------------------------------------------
    "attention_by_hand.caveat.title": {
        "en": "Read the weights with care",
        "zh": "谨慎解读这些权重",
    },
    "attention_by_hand.caveat.body": {
        "en": "- **Routing, not linguistic truth.** An attention weight is an internal quantity: "
        "it says how information was routed inside one head of one layer. It may line up with "
        "coreference or syntax, but it does not establish that *his* refers to *Tom*, and it "
        "is no measure of cause or importance either.\n"
        "- **Illustrative numbers.** The scores above were chosen by hand. A trained model "
        "produces its own, and they differ from head to head and from layer to layer.\n"
        "- **The dot product is only a matching function.** What makes a high score mean "
        "anything is what training has put into $W^Q$ and $W^K$.",
        "zh": "- **这是信息路由，不是语言学事实。** 注意力权重是模型内部的计算量，只说明某一层的"
        "某一个头里信息是怎样流动的。它可能与指代或句法关系吻合，但并不能证明 *his* 指的就是 "
        "*Tom*，也不能当作因果关系或重要性的度量。\n"
        "- **数字是示意性的。** 上面的分数是人为挑选的。训练好的模型会算出自己的分数，"
        "而且不同的头、不同的层各不相同。\n"
        "- **点积只是一个匹配函数。** 高分之所以有意义，靠的是训练写进 $W^Q$ 和 $W^K$ 的东西。",
    },
    "attention_by_hand.heads.title": {
        "en": "“his” should not look only at Tom",
        "zh": "“his” 不应该只关注 Tom",
    },
    "attention_by_hand.heads.body": {
        "en": "Linguistically, *his* takes part in more than one relation at once, while one "
        "softmax can express only one distribution of weight. That is what multi-head attention "
        "is for: every head has its own $W_i^Q$, $W_i^K$, $W_i^V$, so each can learn to look "
        "for something different. For example (illustrative again):",
        "zh": "从语言学角度看，*his* 同时处在不止一种关系里，而一次 softmax 只能给出一种权重分布。"
        "这正是多头注意力的用武之地：每个头都有自己的 $W_i^Q$、$W_i^K$、$W_i^V$，"
        "因此可以学着关注不同的东西。例如（同样只是示意）：",
    },
    "attention_by_hand.heads.h1": {
        "en": "**Head 1 · his → Tom**\n\nCould be read as coreference: *whose* dog? The head "
        "computed above, with the article's scores.",
        "zh": "**头 1 · his → Tom**\n\n可以读作指代关系：这是*谁的*狗？"
        "也就是上面用文章里的分数算的这个头。",
    },
    "attention_by_hand.heads.h2": {
        "en": "**Head 2 · his → dog**\n\nCould be read as syntax: *his* is the determiner of "
        "*dog* — it says which dog.",
        "zh": "**头 2 · his → dog**\n\n可以读作句法关系：*his* 是 *dog* 的限定词，说明是哪一条狗。",
    },
    "attention_by_hand.heads.h3": {
        "en": "**Head 3 · his ↔ loves**\n\nCould be read as the verb that ties the owner to the "
        "dog.",
        "zh": "**头 3 · his ↔ loves**\n\n可以读作把主人和狗联系起来的那个动词。",
    },
    "attention_by_hand.heads.after": {
        "en": "The heads' outputs are concatenated and mixed by $W^O$, so the new *his* carries "
        "several relations at once. Self-attention is not “find what *his* refers to, then "
        "stop”: it is many exchanges of information, in several learned subspaces, in parallel.",
        "zh": "各个头的输出拼接起来，再经过 $W^O$ 混合，所以新的 *his* 同时带着多种关系的信息。"
        "自注意力不是“找到 *his* 指代谁就结束”，而是在多个学到的子空间里并行地进行多种信息交换。",
    },
    "attention_by_hand.matrix.title": {
        "en": "Every query at once: the matrix form",
        "zh": "所有查询一起算：矩阵形式",
    },
    "attention_by_hand.matrix.body": {
        "en": "We worked out a single row. Stack every token's query into $Q$, and the keys and "
        "values into $K$ and $V$: the same three moves — $QK^T$, softmax, times $V$ — give every "
        "token its new vector in one matrix computation. The *his* row of the result is "
        "exactly the $z$ computed above.",
        "zh": "我们只算了其中一行。把所有 token 的查询堆成 $Q$，键和值分别堆成 $K$ 和 $V$，"
        "同样的三步——$QK^T$、softmax、乘以 $V$——就能在一次矩阵运算中为每个 token "
        "算出新向量。结果里 *his* 那一行，正是上面算出的 $z$。",
    },
}
