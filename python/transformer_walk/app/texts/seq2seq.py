"""Words of the Seq2seq page (prefix ``s2s.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "seq2seq.title": {
        "en": "Seq2seq and its bottleneck",
        "zh": "Seq2seq 与它的瓶颈",
    },
    "seq2seq.computed": {
        "en": "The models on this page are trained and run here: the GRUs in NumPy, with their "
        "own backpropagation, the Transformer with the Rust training kernels. The sidebar's "
        "backend is not involved.",
        "zh": "这一页的模型都在这里训练和运行：GRU 用 NumPy，反向传播是手写的；Transformer 用 "
        "Rust 的训练内核。侧边栏选的计算后端在这里不起作用。",
    },
    "seq2seq.intro": {
        "en": "Translation maps a sequence to a sequence of a different length and order. The "
        "encoder–decoder (seq2seq) answer: an RNN **encoder** reads the source token by token "
        "into states $\\boldsymbol h_1 \\dots \\boldsymbol h_T$ and hands its last state to "
        "the **decoder** as the context $\\boldsymbol c$; the decoder then writes the "
        "translation, using that same $\\boldsymbol c$ at every step.",
        "zh": "翻译要把一个序列映射成另一个长度和词序都可能不同的序列。编码器–解码器（seq2seq）"
        "的做法是：RNN **编码器**逐个 token 读入源句子，得到状态 $\\boldsymbol h_1 \\dots "
        "\\boldsymbol h_T$，再把最后一个状态作为上下文 $\\boldsymbol c$ 交给**解码器**；"
        "解码器随后逐词写出译文，每一步用的都是同一个 $\\boldsymbol c$。",
    },
    "seq2seq.intro.problem": {
        "en": "Elegant, and narrow: one vector of fixed size must summarise the whole source "
        "before the decoder has said which part it will need. The fix, attention, keeps every "
        "encoder state and lets each decoder step take its own mixture of them. Below, two "
        "small encoder–decoders, one of each kind, are trained on this page, so that the "
        "difference can be measured instead of asserted.",
        "zh": "很优雅，但接口太窄：在解码器还没说明需要哪一部分之前，一个固定大小的向量就必须概括"
        "整个源句子。解决办法是注意力：保留全部编码器状态，让解码器每一步按自己的需要混合它们。"
        "下面在这一页上现场训练两个小型编码器–解码器，两种各一个，"
        "这样差别就能量出来，而不只是说说而已。",
    },
    "seq2seq.own_example": {
        "en": "This page does not follow the sidebar's sentence: a model trained in seconds can "
        "only learn a tiny language. Here the sentences are strings of the letters {alphabet}, "
        "and the translation of a string is the same letters backwards.",
        "zh": "这一页不使用侧边栏的句子：几秒钟训练出来的模型只学得会一种极小的语言。"
        "这里的句子是由字母 {alphabet} 组成的串，一个串的“译文”就是把这些字母倒过来写。",
    },
    # --- training -------------------------------------------------------------------------------
    "seq2seq.train.title": {
        "en": "Two small translators, trained here",
        "zh": "在这里训练两个小翻译器",
    },
    "seq2seq.train.body": {
        "en": "The task: write a string backwards, then an end mark (“badcafe” → “efacdab”). "
        "Reversal is hard on a single vector at its end: the first letter to write was just "
        "read, but the last one to write was read first, longest ago, and $\\boldsymbol h_T$ "
        "must still hold it. Both models "
        "are GRU encoder–decoders; the decoder starts from $\\boldsymbol s_0 = \\boldsymbol h_T$ "
        "and at every step reads the letter it wrote before and a context. They differ only "
        "in that context:",
        "zh": "任务：把一个串倒过来写，最后写一个结束符（“badcafe” → “efacdab”）。"
        "倒序难在结尾：第一个要写的字母刚刚读过，"
        "最后一个要写的字母却是最早读到、隔得最久的，$\\boldsymbol h_T$ 还得把它记住。"
        "两个模型都是 GRU 编码器–解码器；"
        "解码器从 $\\boldsymbol s_0 = \\boldsymbol h_T$ 出发，每一步读入自己上一步写出的字母"
        "和一个上下文。两者唯一的区别就在这个上下文：",
    },
    "seq2seq.train.fixed": {
        "en": "**Fixed context**: the encoder's last state, the same at every step.",
        "zh": "**固定上下文**：编码器的最后一个状态，每一步都一样。",
    },
    "seq2seq.train.attention": {
        "en": "**Attention** (Bahdanau et al., 2015): a small network scores every encoder state "
        "against the decoder's state, a softmax turns the scores into weights, and the context "
        "is the weighted mixture, new at every step.",
        "zh": "**注意力**（Bahdanau 等，2015）：用一个小网络拿解码器的状态给每个编码器状态打分，"
        "softmax 把得分变成权重，上下文就是加权混合的结果，每一步都重新计算。",
    },
    "seq2seq.train.setup": {
        "en": "The same for both: letter vectors of size {embed}, states of size H = {hidden} "
        "(the scorer is {attn} wide), {steps} Adam steps on batches of {batch} random strings "
        "of 1 to {train_max} letters (the very same batches for both), teacher forcing (in "
        "training the decoder reads the true previous letter) and cross-entropy. The gradients "
        "come from backpropagation through time written out by hand, checked in the tests "
        "against finite differences.",
        "zh": "两者相同的部分：字母向量长 {embed}，状态长 H = {hidden}（打分网络宽 {attn}），"
        "用 Adam 训练 {steps} 步，每批 {batch} 个长 1 到 {train_max} 的随机串"
        "（两个模型用的是完全相同的批次），采用教师强制（训练时解码器读入正确的上一个字母）"
        "和交叉熵损失。梯度来自手写的随时间反向传播，测试里用有限差分核对过。",
    },
    "seq2seq.train.seed": {"en": "Seed", "zh": "随机种子"},
    "seq2seq.train.seed_help": {
        "en": "Another seed gives other starting weights and other training batches: see how "
        "much of the result is luck. Each seed trains once per server.",
        "zh": "换一个种子，初始权重和训练批次都会不同：可以看看结果里有多少是运气。"
        "每个种子在服务器上只训练一次。",
    },
    "seq2seq.train.progress": {
        "en": "Training the {model} model: step {step} of {steps}, loss {loss}",
        "zh": "正在训练{model}模型：第 {step} / {steps} 步，损失 {loss}",
    },
    "seq2seq.train.done": {
        "en": "Trained on this server in {fixed_s} s (fixed context) and {attention_s} s "
        "(attention) and kept on disk: this seed is trained once per machine, and opening the "
        "page again, even after a restart, reads them back. Training loss over the last 50 "
        "steps: {fixed_loss} and {attention_loss}.",
        "zh": "在本服务器上训练用时 {fixed_s} 秒（固定上下文）和 {attention_s} 秒（注意力），"
        "并已存到磁盘：每个种子在一台机器上只训练一次，之后再打开本页（即使服务器重启）都会直接读回。"
        "最后 50 步的平均训练损失：{fixed_loss} 和 {attention_loss}。",
    },
    "seq2seq.train.done_disk": {
        "en": "Read back from the disk cache: trained earlier on this machine with this seed, "
        "in {fixed_s} s (fixed context) and {attention_s} s (attention). Training loss over "
        "the last 50 steps: {fixed_loss} and {attention_loss}.",
        "zh": "从磁盘缓存读回：这台机器之前用这个种子训练过，用时 {fixed_s} 秒（固定上下文）和 "
        "{attention_s} 秒（注意力）。最后 50 步的平均训练损失：{fixed_loss} 和 {attention_loss}。",
    },
    "seq2seq.variant.fixed": {"en": "fixed-context", "zh": "固定上下文"},
    "seq2seq.variant.attention": {"en": "attention", "zh": "注意力"},
    # --- accuracy against length ------------------------------------------------------------------
    "seq2seq.curve.title": {
        "en": "Accuracy against length: the bottleneck as a measured curve",
        "zh": "准确率随长度的变化：量出来的瓶颈曲线",
    },
    "seq2seq.curve.body": {
        "en": "Each point: {n} new random strings of that length, decoded greedily (each model "
        "reads the letter it wrote itself, not the true one), scored by the share of letters "
        "in the right place. Strings longer than {train_max} letters never occurred in training.",
        "zh": "每个点：{n} 个该长度的新随机串，用贪心解码（每个模型读入的是自己写出的字母，"
        "而不是正确答案），按位置正确的字母所占比例计分。长于 {train_max} 个字母的串"
        "在训练中从未出现过。",
    },
    "seq2seq.curve.series.fixed": {"en": "fixed context (c = h_T)", "zh": "固定上下文（c = h_T）"},
    "seq2seq.curve.series.attention": {
        "en": "attention (c_t = Σ α h_i)",
        "zh": "注意力（c_t = Σ α h_i）",
    },
    "seq2seq.curve.axis_length": {"en": "source length T (letters)", "zh": "源串长度 T（字母数）"},
    "seq2seq.curve.axis_accuracy": {"en": "letters right", "zh": "字母正确率"},
    "seq2seq.curve.axis_series": {"en": "model", "zh": "模型"},
    "seq2seq.curve.axis_whole": {"en": "whole string right", "zh": "整串正确率"},
    "seq2seq.curve.trained": {"en": "trained on 1–{train_max}", "zh": "训练长度 1–{train_max}"},
    "seq2seq.curve.chance": {
        "en": "a random letter ({chance})",
        "zh": "随机猜一个字母（{chance}）",
    },
    "seq2seq.curve.short.even": {
        "en": "At length {length} the two GRUs are even: the fixed context gets {fixed} of the "
        "letters right, attention {attention}.",
        "zh": "长度为 {length} 时两个 GRU 不相上下：固定上下文的字母正确率是 {fixed}，"
        "注意力是 {attention}。",
    },
    "seq2seq.curve.short.attention": {
        "en": "Even at length {length} the GRU with attention is ahead: {attention} of the "
        "letters right, against {fixed} with the fixed context.",
        "zh": "即使在长度 {length}，带注意力的 GRU 也已领先：字母正确率 {attention}，"
        "固定上下文的 GRU 是 {fixed}。",
    },
    "seq2seq.curve.short.fixed": {
        "en": "At length {length} the GRU with the fixed context is ahead: {fixed} of the "
        "letters right, against {attention} with attention.",
        "zh": "长度为 {length} 时固定上下文的 GRU 领先：字母正确率 {fixed}，注意力是 {attention}。",
    },
    "seq2seq.curve.long.attention": {
        "en": "At length {length}, the longest in training, the GRU with attention gets "
        "{attention} of the letters right and the one with the fixed context {fixed}, after the "
        "same training for both: that gap is the bottleneck, as this budget measures it.",
        "zh": "在长度 {length}，也就是训练中最长的长度，带注意力的 GRU 字母正确率是 {attention}，"
        "固定上下文的 GRU 是 {fixed}，两者的训练完全相同：这个差距就是在这样的训练量下"
        "量出来的瓶颈。",
    },
    "seq2seq.curve.long.even": {
        "en": "At length {length}, the longest in training, the two GRUs are even ({attention} "
        "with attention, {fixed} with the fixed context): with this seed the bottleneck does not "
        "show within the training lengths.",
        "zh": "在长度 {length}，也就是训练中最长的长度，两个 GRU 不相上下（注意力 {attention}，"
        "固定上下文 {fixed}）：在这个种子下，瓶颈在训练长度以内没有显现出来。",
    },
    "seq2seq.curve.long.fixed": {
        "en": "At length {length}, the longest in training, the GRU with the fixed context is "
        "ahead: {fixed} of the letters right, against {attention} with attention.",
        "zh": "在长度 {length}，也就是训练中最长的长度，固定上下文的 GRU 领先：字母正确率 {fixed}，"
        "注意力是 {attention}。",
    },
    "seq2seq.curve.seen": {
        "en": "(At length {length} training met {share} of all {strings} possible "
        "strings, so most test strings there are ones both GRUs have seen: an even score "
        "may be memory as much as one vector holding the string.)",
        "zh": "（在长度 {length}，训练见过全部 {strings} 个可能串中的 {share}，"
        "所以那里的测试串多半是两个 GRU 都见过的：成绩相当，可能是记住了，"
        "而不只是一个向量装得下这个串。）",
    },
    "seq2seq.curve.seen_all": {"en": "over 99.9%", "zh": "99.9% 以上"},
    "seq2seq.curve.still_learning": {
        "en": "The fixed context has not finished learning even the training lengths: its "
        "training loss over the last {window} steps is {fixed_loss}, against {attention_loss} "
        "with attention. So part of the gap may be the training budget; attention got there "
        "within the same steps.",
        "zh": "固定上下文连训练长度都还没有学完：它最后 {window} 步的训练损失是 {fixed_loss}，"
        "注意力是 {attention_loss}。所以差距的一部分可能来自训练量；注意力在同样的步数内就做到了。",
    },
    "seq2seq.curve.both_trained": {
        "en": "Both GRUs have finished learning the training lengths (training loss over the "
        "last {window} steps: {fixed_loss} fixed, {attention_loss} attention), so the gap is "
        "not a matter of more steps.",
        "zh": "两个 GRU 都已学完训练长度（最后 {window} 步的训练损失：固定上下文 {fixed_loss}，"
        "注意力 {attention_loss}），所以差距不是多训练几步就能补上的。",
    },
    "seq2seq.curve.drop.fixed.at": {
        "en": "The fixed context first falls below {holds} at length {length}.",
        "zh": "固定上下文从长度 {length} 开始低于 {holds}。",
    },
    "seq2seq.curve.drop.fixed.never": {
        "en": "The fixed context stays at or above {holds} at every length measured.",
        "zh": "在测量的每个长度上，固定上下文都不低于 {holds}。",
    },
    "seq2seq.curve.drop.attention.at": {
        "en": "Attention first falls below {holds} at length {length}.",
        "zh": "注意力从长度 {length} 开始低于 {holds}。",
    },
    "seq2seq.curve.drop.attention.never": {
        "en": "Attention stays at or above {holds} at every length measured.",
        "zh": "在测量的每个长度上，注意力都不低于 {holds}。",
    },
    "seq2seq.curve.far.both_fall": {
        "en": "Far past the training lengths both GRUs break: at length {length} attention "
        "gets {attention} of the letters right and the fixed context {fixed} (a random letter: "
        "{chance}). Attention removes the bottleneck, not the need to have learned those "
        "lengths.",
        "zh": "远远超出训练长度时，两个 GRU 都应付不了：在长度 {length}，注意力的字母正确率"
        "是 {attention}，固定上下文是 {fixed}（随机猜一个字母：{chance}）。"
        "注意力消除了瓶颈，但模型仍然得在这些长度上训练过才行。",
    },
    "seq2seq.curve.far.attention_holds": {
        "en": "Even past the training lengths attention holds: at length {length} it gets "
        "{attention} of the letters right, the fixed context {fixed} (a random letter: "
        "{chance}).",
        "zh": "即使超出训练长度，注意力依然撑得住：在长度 {length}，它的字母正确率是 "
        "{attention}，固定上下文是 {fixed}（随机猜一个字母：{chance}）。",
    },
    "seq2seq.curve.far.fixed_holds": {
        "en": "Past the training lengths the fixed context holds and attention does not: at "
        "length {length}, {fixed} of the letters right against {attention} (a random letter: "
        "{chance}).",
        "zh": "超出训练长度后，固定上下文撑得住而注意力撑不住：在长度 {length}，"
        "字母正确率 {fixed} 对 {attention}（随机猜一个字母：{chance}）。",
    },
    "seq2seq.curve.far.both_hold": {
        "en": "Even past the training lengths both GRUs hold: at length {length}, attention gets "
        "{attention} of the letters right and the fixed context {fixed}.",
        "zh": "即使超出训练长度，两个 GRU 都撑得住：在长度 {length}，注意力的字母正确率是 "
        "{attention}，固定上下文是 {fixed}。",
    },
    "seq2seq.curve.table": {"en": "Every length, in numbers", "zh": "每个长度的具体数字"},
    "seq2seq.curve.col.length": {"en": "length T", "zh": "长度 T"},
    "seq2seq.curve.col.fixed_letters": {
        "en": "fixed: letters right",
        "zh": "固定上下文：字母正确率",
    },
    "seq2seq.curve.col.fixed_whole": {"en": "fixed: whole string", "zh": "固定上下文：整串正确率"},
    "seq2seq.curve.col.attention_letters": {
        "en": "attention: letters right",
        "zh": "注意力：字母正确率",
    },
    "seq2seq.curve.col.attention_whole": {
        "en": "attention: whole string",
        "zh": "注意力：整串正确率",
    },
    # --- the learner's own sequence ---------------------------------------------------------------
    "seq2seq.own.title": {
        "en": "Your own string, and the alignment attention learned",
        "zh": "你自己的串，以及注意力学到的对齐",
    },
    "seq2seq.own.input": {
        "en": "A string of the letters {alphabet} to reverse",
        "zh": "一个要倒过来写的串（由字母 {alphabet} 组成）",
    },
    "seq2seq.own.input_help": {
        "en": "Up to {limit} letters; spaces, commas and dashes between them are ignored, "
        "capitals read as small letters.",
        "zh": "最多 {limit} 个字母；字母之间的空格、逗号和连字符会被忽略，大写字母按小写处理。",
    },
    "seq2seq.own.empty": {
        "en": "Type a few of the letters {alphabet} to see what the two models make of them.",
        "zh": "输入几个字母（{alphabet} 之中的），看看两个模型会怎么处理。",
    },
    "seq2seq.own.bad": {
        "en": "The models only know the letters {alphabet}; “{bad}” is not among them. Try "
        "again with those letters only.",
        "zh": "这两个模型只认识字母 {alphabet}；“{bad}”不在其中。请只用这些字母再试一次。",
    },
    "seq2seq.own.long": {
        "en": "That is {length} letters; this section takes up to {limit}. The curve above "
        "already shows what happens to long strings.",
        "zh": "这里有 {length} 个字母；这一节最多接受 {limit} 个。"
        "长串会怎样，上面的曲线已经给出了。",
    },
    "seq2seq.own.col.model": {"en": "model", "zh": "模型"},
    "seq2seq.own.col.output": {"en": "output", "zh": "输出"},
    "seq2seq.own.col.right": {"en": "letters right", "zh": "正确字母数"},
    "seq2seq.own.expected": {"en": "the reversal", "zh": "正确的倒序"},
    "seq2seq.own.no_end": {"en": "{output} … (no end mark)", "zh": "{output} …（没有写结束符）"},
    "seq2seq.own.verdict.both": {
        "en": "Both models reverse “{source}” exactly.",
        "zh": "两个模型都把“{source}”准确地倒了过来。",
    },
    "seq2seq.own.verdict.attention": {
        "en": "Only the attention model reverses “{source}” exactly; the fixed context gets "
        "{fixed_right} of its {length} letters in place.",
        "zh": "只有注意力模型把“{source}”准确地倒了过来；固定上下文模型在 {length} 个字母中"
        "放对了 {fixed_right} 个。",
    },
    "seq2seq.own.verdict.fixed": {
        "en": "Only the fixed-context model reverses “{source}” exactly; attention gets "
        "{attention_right} of its {length} letters in place.",
        "zh": "只有固定上下文模型把“{source}”准确地倒了过来；注意力模型在 {length} 个字母中"
        "放对了 {attention_right} 个。",
    },
    "seq2seq.own.verdict.neither": {
        "en": "Neither model reverses “{source}” exactly: the fixed context gets {fixed_right} "
        "of its {length} letters in place, attention {attention_right}.",
        "zh": "两个模型都没能把“{source}”准确地倒过来：在 {length} 个字母中，固定上下文放对了 "
        "{fixed_right} 个，注意力放对了 {attention_right} 个。",
    },
    "seq2seq.own.curve.within": {
        "en": "On random strings of {length} letters the curve above measured {attention} of "
        "the letters right with attention and {fixed} with the fixed context.",
        "zh": "在长度为 {length} 的随机串上，上面的曲线测得注意力的字母正确率为 {attention}，"
        "固定上下文为 {fixed}。",
    },
    "seq2seq.own.curve.beyond": {
        "en": "{length} letters is longer than any string in training (1 to {train_max}); on "
        "random strings of this length the curve above measured {attention} of the letters "
        "right with attention and {fixed} with the fixed context.",
        "zh": "{length} 个字母比训练中的任何串（1 到 {train_max} 个字母）都长；"
        "在这个长度的随机串上，上面的曲线测得注意力的字母正确率为 {attention}，"
        "固定上下文为 {fixed}。",
    },
    "seq2seq.own.curve.unmeasured": {
        "en": "{length} letters is longer than any string in training (1 to {train_max}) and "
        "than the curve above goes ({eval_max}).",
        "zh": "{length} 个字母比训练中的任何串（1 到 {train_max} 个字母）都长，"
        "也超出了上面曲线测量的范围（{eval_max}）。",
    },
    "seq2seq.own.align.body": {
        "en": "Each row is one step of the attention model's decoder, labelled with the letter it "
        "wrote; each column a source position. The cell is the weight α that step gave that "
        "encoder state. Nobody told the model where to look: these weights are learned.",
        "zh": "每一行是注意力模型解码器的一步，标的是那一步写出的字母；每一列是一个源位置。"
        "格子里是那一步给这个编码器状态的权重 α。没有人告诉模型该看哪里：这些权重是学出来的。",
    },
    "seq2seq.own.axis.step": {"en": "decoder step (letter written)", "zh": "解码步（写出的字母）"},
    "seq2seq.own.axis.source": {"en": "source position i (letter)", "zh": "源位置 i（字母）"},
    "seq2seq.own.end": {"en": "end", "zh": "结束"},
    "seq2seq.own.align.counts": {
        "en": "Of the {rows} letters the attention model wrote for this string, {on} took the "
        "most weight from the state of the letter being copied, hᵢ, {after} from the state "
        "just after it, hᵢ₊₁, and {elsewhere} from somewhere else.",
        "zh": "对这个串，注意力模型写出的 {rows} 个字母中，有 {on} 个的最大权重落在被抄写字母"
        "自己的状态 hᵢ 上，{after} 个落在紧随其后的状态 hᵢ₊₁ 上，{elsewhere} 个落在别处。",
    },
    "seq2seq.own.align.on_letter": {
        "en": "Every step looks where its letter is: the anti-diagonal of a reversal.",
        "zh": "每一步看的都正是它要抄的字母所在之处：一条倒序的反对角线。",
    },
    "seq2seq.own.align.on_or_after": {
        "en": "Every step looks at its letter's state or the next one: the reversal's "
        "anti-diagonal, shifted by one where the peak is on hᵢ₊₁. A likely reason: a forward "
        "GRU's hᵢ₊₁ has just read xᵢ₊₁, the letter the decoder wrote one step before, and "
        "still carries xᵢ, the one it writes now — a state the decoder can find by what it "
        "last wrote, and read from.",
        "zh": "每一步看的要么是它要抄的字母的状态，要么是下一个状态：这是倒序的反对角线，"
        "峰值落在 hᵢ₊₁ 的地方整体错开了一格。一个可能的原因：正向 GRU 的 hᵢ₊₁ 刚读过 "
        "xᵢ₊₁，也就是解码器上一步写出的字母，同时还带着 xᵢ，也就是现在要写的字母——"
        "解码器可以凭自己上一步写了什么找到这个状态，再从中读出下一个字母。",
    },
    "seq2seq.own.align.mostly": {
        "en": "Most steps follow the reversal's anti-diagonal (on the letter's state or the next "
        "one); the others look elsewhere.",
        "zh": "大多数步沿着倒序的反对角线（落在字母自己的状态或下一个状态上）；其余的看向了别处。",
    },
    "seq2seq.own.align.scattered": {
        "en": "Fewer than half of the steps follow the reversal's anti-diagonal: on this string "
        "the model has lost track of where to read.",
        "zh": "沿着倒序反对角线的步数不到一半：在这个串上，模型已经找不准该从哪里读了。",
    },
    "seq2seq.own.align.none": {
        "en": "The attention model wrote no letter for this string, so there is no alignment "
        "to read.",
        "zh": "对这个串，注意力模型一个字母也没写，所以没有对齐可看。",
    },
    "seq2seq.own.align.caveat": {
        "en": "Attention weights show where information was read from; they are not a proof of "
        "what the model “understood”, and they need not be where a person would look.",
        "zh": "注意力权重显示的是信息从哪里读取，并不能证明模型“理解”了什么；"
        "它们也不一定落在人会去看的地方。",
    },
    # --- fixed vs per-step contexts --------------------------------------------------------------
    "seq2seq.fixed.title": {
        "en": "One context for every step vs one context per step",
        "zh": "每一步共用一个上下文，还是每一步各有一个",
    },
    "seq2seq.fixed.body": {
        "en": "Each row is what the decoder received while writing that letter of your string. "
        "On the left, the fixed-context model: its encoder's final state $\\boldsymbol h_T$, "
        "copied to every row. On the right, the attention model: a different mixture of its "
        "encoder's states at every step.",
        "zh": "每一行是解码器在写出你这个串的那个字母时收到的上下文。左边是固定上下文模型："
        "它的编码器的最后状态 $\\boldsymbol h_T$，原样复制到每一行。"
        "右边是注意力模型：每一步都按不同比例混合它的编码器状态。",
    },
    "seq2seq.fixed.fixed": {"en": "Fixed context", "zh": "固定上下文"},
    "seq2seq.fixed.attention": {
        "en": "Attention: a context per step",
        "zh": "注意力：每步一个上下文",
    },
    "seq2seq.axis.dim": {"en": "dimension", "zh": "维度"},
    "seq2seq.axis.value": {"en": "value", "zh": "数值"},
    "seq2seq.fixed.compare": {
        "en": "Across the {steps} decoder steps the fixed context never changes (every row is "
        "identical), while the attention contexts differ by up to {spread} in some dimension.",
        "zh": "在 {steps} 个解码步里，固定上下文从不改变（每一行都一样）；"
        "而注意力得到的上下文，在某一维上相差可达 {spread}。",
    },
    # --- the untrained read-back probe ------------------------------------------------------------
    "seq2seq.neck.title": {
        "en": "Why: what one vector can still tell, before any training",
        "zh": "原因：一个向量还能说出多少（未经任何训练）",
    },
    "seq2seq.neck.body": {
        "en": "A separate experiment, with nothing trained but a read-out: random sentences of T "
        "words from a {vocab}-word toy vocabulary go through a tanh RNN with random weights. A "
        "linear read-out, fitted on 1,500 sentences and tested on 500 new ones, tries to name "
        "word i. From the single vector $\\boldsymbol h_T$ (what a fixed-context decoder gets), "
        "early words fade towards chance as T grows. From $\\boldsymbol h_i$ itself (what "
        "attention lets the decoder reach), the state that has just read word i: the best "
        "case, the third line.",
        "zh": "这是另一个实验，除了读出器之外什么都不训练：从一个含 {vocab} 个词的玩具词表中随机"
        "组成长度为 T 的句子，送进一个权重随机的 tanh RNN。一个线性读出器在 1500 个句子上拟合，"
        "再在 500 个新句子上测试，尝试说出第 i 个词。只看单个向量 $\\boldsymbol h_T$"
        "（固定上下文解码器拿到的东西）时，随着 T 变长，靠前的词逐渐退化到随机猜测的水平；"
        "而直接看 $\\boldsymbol h_i$（注意力让解码器够得着的东西），也就是刚刚读入第 i 个词的"
        "那个状态：这是最好的情况，即第三条线。",
    },
    "seq2seq.dim": {"en": "State size d", "zh": "状态维数 d"},
    "seq2seq.neck.running": {
        "en": "Encoding a few thousand random sentences…",
        "zh": "正在编码几千个随机句子…",
    },
    "seq2seq.neck.series.first": {
        "en": "word 1, read from h_T",
        "zh": "第 1 个词，从 h_T 读出",
    },
    "seq2seq.neck.series.mean": {
        "en": "every word (average), read from h_T",
        "zh": "所有词（平均），从 h_T 读出",
    },
    "seq2seq.neck.series.own": {
        "en": "every word (average), read from its own h_i",
        "zh": "所有词（平均），从各自的 h_i 读出",
    },
    "seq2seq.neck.axis_length": {"en": "source length T (words)", "zh": "源句长度 T（词数）"},
    "seq2seq.neck.axis_accuracy": {"en": "read-back accuracy", "zh": "读出准确率"},
    "seq2seq.neck.axis_series": {"en": "what is read", "zh": "读取方式"},
    "seq2seq.neck.chance": {"en": "chance ({chance})", "zh": "随机猜测（{chance}）"},
    "seq2seq.neck.own.readable": {
        "en": "From its own state every word is read back at least {lowest} of the time, at "
        "every length: what attention can reach does not fade with T.",
        "zh": "从每个词自己的状态读出，在每个长度上准确率都至少是 {lowest}："
        "注意力够得着的信息不会随 T 变长而消退。",
    },
    "seq2seq.neck.own.crowded": {
        "en": "Even from its own state a word is read back only {lowest} of the time at some "
        "length: a state of d = {d} numbers holds even the word it has just read poorly.",
        "zh": "即使从自己的状态读出，在某个长度上准确率也只有 {lowest}："
        "只有 d = {d} 个数的状态，连刚刚读入的词都记不太住。",
    },
    "seq2seq.neck.summary": {
        "en": "With d = {d}: word 1 is recovered from h_T {short} of the time when T = 2, but "
        "only {long} when T = {long_T} (chance: {chance}); averaged over all positions, "
        "{mean}. Read from each word's own state, {own}. Make d larger and the single vector "
        "holds a little more — yet its size is fixed while sentences are not.",
        "zh": "当 d = {d} 时：T = 2 时从 h_T 读出第 1 个词的准确率是 {short}，"
        "T = {long_T} 时只有 {long}（随机猜测为 {chance}）；对所有位置取平均为 {mean}。"
        "若从每个词自己的状态读出，则是 {own}。把 d 调大，单个向量能多记一点——"
        "但它的大小是固定的，句子的长度却不是。",
    },
    "seq2seq.solved": {
        "en": "variable-length input to variable-length output, and — with attention — a "
        "decoder that reads what it needs at each step.",
        "zh": "变长输入到变长输出；加上注意力之后，解码器每一步都能按需读取信息。",
    },
    "seq2seq.hurts": {
        "en": "even with attention the encoder is still a recurrence: its states are computed one "
        "after another, a letter at a time, never side by side.",
        "zh": "即使加上注意力，编码器依然是循环结构：它的状态只能一个接一个地算，"
        "一次一个字母，没法并行。",
    },
    "seq2seq.know.title": {
        "en": "How we know: the controls on this page",
        "zh": "我们凭什么这么说：本页用到的对照",
    },
    "seq2seq.know.body": {
        "en": "- **One difference.** The two models have the same sizes, the same training steps "
        "and the very same batches; only the context differs, so the gap between the curves is "
        "the context's doing.\n"
        "- **New strings.** Every point is scored on random strings drawn after training, not "
        "on the training batches; lengths past 8 were never seen at all.\n"
        "- **Another seed.** The seed changes the initial weights and the batches: a result "
        "that holds for one seed only is luck.\n"
        "- **Attention that does nothing.** The project's tests also train the attention model "
        "with its scorer stuck at zero (every weight equal) and check that at lengths 7 and 8 it "
        "does not reach what the trained one reaches (90% of the letters, 20 points above the "
        "fixed context): the gain comes from where the weights look, not from the extra layer.",
        "zh": "- **只差一处。** 两个模型大小相同、训练步数相同、用的是完全相同的批次；"
        "只有上下文不同，所以两条曲线之间的差距来自上下文。\n"
        "- **新的字符串。** 每个点都在训练之后新抽取的随机字符串上评分，而不是训练用的批次；"
        "长于 8 的长度在训练中根本没有出现过。\n"
        "- **换一个种子。** 种子决定初始权重和批次：只在一个种子下成立的结果只是运气。\n"
        "- **什么也不做的注意力。** 本项目的测试还训练了一个打分器固定为零（所有权重相等）的"
        "注意力模型，并检查它在长度 7 和 8 上达不到训练好的模型所达到的水平（字母正确率 90%，"
        "并比固定上下文高 20 个百分点）：提升来自权重看向哪里，而不是多出来的那一层。",
    },
}
