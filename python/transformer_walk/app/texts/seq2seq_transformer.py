"""Words of the Seq2seq page about its third model, the small Transformer (prefix
``seq2seq_transformer.``): its training, its line on the curve, its answer to the learner's
string, and parallel against sequential."""

MESSAGES: dict[str, dict[str, str]] = {
    # --- training ---------------------------------------------------------------------------------
    "seq2seq_transformer.train.body": {
        "en": "A third model learns the same task: a small **Transformer** decoder (the "
        "learner of this project: {layers} layers, d_model = {d_model}, {h} heads, learned "
        "positions, {params} parameters against the GRUs' {gru_params} and {attention_params}). "
        "It has no encoder and no recurrence: each example is one sequence — the letters, a "
        "mark, the reversed letters, the mark again — and a causal mask lets every position "
        "see only those before it. It trains on the very same {steps} batches as the GRUs, with "
        "the loss on the answer only. Unlike them it computes in float32 with the Rust kernels "
        "and AdamW (learning rate {lr}), without gradient clipping.",
        "zh": "第三个模型学的是同一个任务：一个小型 **Transformer** 解码器（本项目的学习器："
        "{layers} 层，d_model = {d_model}，{h} 个头，位置向量是学出来的，共 {params} 个参数；"
        "两个 GRU 分别是 {gru_params} 和 {attention_params} 个）。它没有编码器，也没有循环："
        "每个样本就是一条序列——源字母、一个分隔符、倒过来的字母、再一个分隔符——因果掩码让每个"
        "位置只能看到它前面的位置。它用的正是 GRU 那 {steps} 个批次，损失只算答案部分。"
        "与 GRU 不同的是，它用 Rust 内核以 float32 计算，优化器是 AdamW（学习率 {lr}），"
        "不做梯度裁剪。",
    },
    "seq2seq_transformer.train.progress": {
        "en": "Training the Transformer: step {step} of {steps}, loss {loss}",
        "zh": "正在训练 Transformer：第 {step} / {steps} 步，损失 {loss}",
    },
    "seq2seq_transformer.train.timing": {
        "en": "Timing one training step of each model at every length…",
        "zh": "正在为每个模型在每个长度上计时一个训练步…",
    },
    "seq2seq_transformer.train.done": {
        "en": "The Transformer trained in {seconds} s; training loss over the last 50 steps: "
        "{loss}.",
        "zh": "Transformer 训练用时 {seconds} 秒；最后 50 步的平均训练损失：{loss}。",
    },
    "seq2seq_transformer.train.done_disk": {
        "en": "The Transformer was read back from the disk cache (trained earlier on this "
        "machine in {seconds} s); training loss over the last 50 steps: {loss}.",
        "zh": "Transformer 从磁盘缓存读回（之前在这台机器上训练，用时 {seconds} 秒）；"
        "最后 50 步的平均训练损失：{loss}。",
    },
    "seq2seq_transformer.name": {"en": "Transformer", "zh": "Transformer 模型"},
    # --- the curve ------------------------------------------------------------------------------
    "seq2seq_transformer.series": {
        "en": "Transformer (self-attention, causal)",
        "zh": "Transformer（因果自注意力）",
    },
    "seq2seq_transformer.col.letters": {
        "en": "Transformer: letters right",
        "zh": "Transformer：字母正确率",
    },
    "seq2seq_transformer.col.whole": {
        "en": "Transformer: whole string",
        "zh": "Transformer：整串正确率",
    },
    "seq2seq_transformer.curve.within.even": {
        "en": "The Transformer, at length {length}: {transformer} of the letters right, even "
        "with the attention GRU ({attention}; the fixed context {fixed}).",
        "zh": "Transformer 在长度 {length} 的字母正确率是 {transformer}，与注意力 GRU 不相上下"
        "（{attention}；固定上下文 {fixed}）。",
    },
    "seq2seq_transformer.curve.within.ahead": {
        "en": "The Transformer, at length {length}: {transformer} of the letters right, ahead "
        "of the attention GRU ({attention}) and the fixed context ({fixed}).",
        "zh": "Transformer 在长度 {length} 的字母正确率是 {transformer}，"
        "领先于注意力 GRU（{attention}）和固定上下文（{fixed}）。",
    },
    "seq2seq_transformer.curve.within.behind": {
        "en": "The Transformer, at length {length}: {transformer} of the letters right, behind "
        "the attention GRU ({attention}; the fixed context {fixed}).",
        "zh": "Transformer 在长度 {length} 的字母正确率是 {transformer}，落后于注意力 GRU"
        "（{attention}；固定上下文 {fixed}）。",
    },
    "seq2seq_transformer.curve.still_learning": {
        "en": "Its training loss over the last {window} steps is still {loss}: in these steps "
        "it has not finished learning the training lengths.",
        "zh": "它最后 {window} 步的训练损失仍有 {loss}：在这些步数内，它还没有学完训练长度。",
    },
    "seq2seq_transformer.curve.trained": {
        "en": "Its training loss over the last {window} steps is down to {loss}; the greedy "
        "scores above, where it reads its own guesses, are the stricter test.",
        "zh": "它最后 {window} 步的训练损失已降到 {loss}；上面的贪心解码成绩读的是它自己的猜测，"
        "是更严格的检验。",
    },
    "seq2seq_transformer.curve.cliff": {
        "en": "One letter past training it falls off a cliff: from {long_acc} at length {long} "
        "to {next_acc} at length {next} (a random letter: {chance}), where the attention GRU "
        "still gets {attention_next}. Its positions are learned vectors, one per place: in "
        "training the mark always stood at positions {mark_from} to {mark_to} and no input "
        "was longer than {positions}, so a longer string puts the mark where no mark ever "
        "stood and the end of its answer at positions training never used. The GRUs have "
        "no table of positions: a place is how far the recurrence has got, one more step of "
        "the same update.",
        "zh": "只多一个字母，它就断崖式下跌：从长度 {long} 的 {long_acc} 跌到长度 {next} 的 "
        "{next_acc}（随机猜一个字母：{chance}），而注意力 GRU 在那里仍有 {attention_next}。"
        "它的位置信息是学出来的向量，每个位置一个：训练中分隔符总是落在第 {mark_from} 到第 "
        "{mark_to} 个位置，输入也从未长过 {positions} 个位置，所以更长的串会把分隔符放到它"
        "从未出现过的位置，答案的末尾则落在训练从未用到的位置上。GRU 没有位置表："
        "位置就是循环走到了哪一步，多一步也只是同一个更新再做一次。",
    },
    # --- the learner's own string ---------------------------------------------------------------
    "seq2seq_transformer.own.exact": {
        "en": "The Transformer reverses all {length} letters exactly.",
        "zh": "Transformer 把全部 {length} 个字母准确地倒了过来。",
    },
    "seq2seq_transformer.own.partial": {
        "en": "The Transformer gets {right} of the {length} letters in place.",
        "zh": "Transformer 在 {length} 个字母中放对了 {right} 个。",
    },
    "seq2seq_transformer.own.too_long": {
        "en": "The Transformer cannot read {length} letters: its table of learned positions "
        "holds strings of up to {limit}, answer included.",
        "zh": "Transformer 读不了 {length} 个字母：它学到的位置表连同答案在内，"
        "最多只容得下 {limit} 个字母的串。",
    },
    "seq2seq_transformer.own.unread": {"en": "(not read)", "zh": "（无法读入）"},
    "seq2seq_transformer.own.passes": {
        "en": "To write its answer the Transformer ran {passes} forward "
        "{passes:pass|passes}, one per symbol, each over everything written so far: even a "
        "Transformer writes one symbol at a time.",
        "zh": "为了写出答案，Transformer 运行了 {passes} 次前向计算，每个符号一次，"
        "每次都读入目前为止写下的全部内容：即便是 Transformer，生成时也是一次写一个符号。",
    },
    # --- parallel against sequential ------------------------------------------------------------
    "seq2seq_transformer.time.title": {
        "en": "Parallel in training, sequential in writing",
        "zh": "训练可以并行，生成仍是逐个",
    },
    "seq2seq_transformer.time.body": {
        "en": "A GRU cannot compute state $\\boldsymbol h_i$ before $\\boldsymbol h_{{i-1}}$: a "
        "training step on strings of T letters is 2T + 1 updates in a row (T in the encoder, "
        "T + 1 in the decoder), forward and again backward. The Transformer's step, with "
        "teacher forcing, has the whole answer in its input; the causal mask hides what comes "
        "later, so every position of a layer is computed in the same matrix products, side by "
        "side. Below: one training step (forward and backward over a batch of {batch} strings, "
        "the update left out) timed on this machine at every length, the fastest of "
        "{repeats} runs.",
        "zh": "GRU 必须先算出 $\\boldsymbol h_{{i-1}}$ 才能算 $\\boldsymbol h_i$：在长 T 的串上，"
        "一个训练步就是连续 2T + 1 次更新（编码器 T 次，解码器 T + 1 次），前向一遍，反向再一遍。"
        "Transformer 的训练步在教师强制下，整个答案都已在输入里；因果掩码遮住后面的内容，"
        "于是同一层的所有位置都在同一批矩阵乘法里并排算完。下图：在这台机器上为每个长度计时"
        "一个训练步（对 {batch} 个串做一次前向和反向，不含参数更新），"
        "取 {repeats} 次中最快的一次。",
    },
    "seq2seq_transformer.time.axis_time": {
        "en": "one training step (ms)",
        "zh": "一个训练步（毫秒）",
    },
    "seq2seq_transformer.time.growth.slower": {
        "en": "From {short} to {long} letters a step of the fixed-context GRU grows from "
        "{fixed_short} to {fixed_long} ({fixed_ratio}) and the attention GRU's from "
        "{attention_short} to {attention_long} ({attention_ratio}); the Transformer's from "
        "{transformer_short} to {transformer_long}, only {transformer_ratio}. The GRUs' time "
        "grows with the updates they make one after another; the Transformer's work grows "
        "too, but it is done in fewer, larger calls.",
        "zh": "从 {short} 个字母到 {long} 个字母，固定上下文 GRU 的一个训练步从 {fixed_short} "
        "增加到 {fixed_long}（{fixed_ratio}），注意力 GRU 从 {attention_short} 增加到 "
        "{attention_long}（{attention_ratio}）；Transformer 从 {transformer_short} 增加到 "
        "{transformer_long}，只有 {transformer_ratio}。GRU 的时间随着必须一个接一个做的更新"
        "而增长；Transformer 的计算量也在增长，但它是用更少、更大的调用完成的。",
    },
    "seq2seq_transformer.time.growth.between": {
        "en": "From {short} to {long} letters a step of the fixed-context GRU grows from "
        "{fixed_short} to {fixed_long} ({fixed_ratio}), the attention GRU's from "
        "{attention_short} to {attention_long} ({attention_ratio}) and the Transformer's from "
        "{transformer_short} to {transformer_long} ({transformer_ratio}): between the two. "
        "At these small sizes the measurement does not separate parallel from sequential "
        "cleanly; the count of updates in a row (2T + 1 against none) is what stays.",
        "zh": "从 {short} 个字母到 {long} 个字母，固定上下文 GRU 的一个训练步从 {fixed_short} "
        "增加到 {fixed_long}（{fixed_ratio}），注意力 GRU 从 {attention_short} 增加到 "
        "{attention_long}（{attention_ratio}），Transformer 从 {transformer_short} 增加到 "
        "{transformer_long}（{transformer_ratio}）：介于两者之间。在这么小的规模下，"
        "测量结果没能把并行和顺序清楚地分开；不变的是必须依次完成的更新次数（2T + 1 次对零次）。",
    },
    "seq2seq_transformer.time.growth.close_below": {
        "en": "From {short} to {long} letters a step of the fixed-context GRU grows from "
        "{fixed_short} to {fixed_long} ({fixed_ratio}), the attention GRU's from "
        "{attention_short} to {attention_long} ({attention_ratio}) and the Transformer's from "
        "{transformer_short} to {transformer_long} ({transformer_ratio}): less than both, "
        "but too close to the nearer one to tell apart. At these small sizes the measurement "
        "does not separate parallel from sequential cleanly; the count of updates in a row "
        "(2T + 1 against none) is what stays.",
        "zh": "从 {short} 个字母到 {long} 个字母，固定上下文 GRU 的一个训练步从 {fixed_short} "
        "增加到 {fixed_long}（{fixed_ratio}），注意力 GRU 从 {attention_short} 增加到 "
        "{attention_long}（{attention_ratio}），Transformer 从 {transformer_short} 增加到 "
        "{transformer_long}（{transformer_ratio}）：比两者都少，但与较近的那个太接近，"
        "分不出高下。在这么小的规模下，测量结果没能把并行和顺序"
        "清楚地分开；不变的是必须依次完成的更新次数（2T + 1 次对零次）。",
    },
    "seq2seq_transformer.time.growth.close_above": {
        "en": "From {short} to {long} letters a step of the fixed-context GRU grows from "
        "{fixed_short} to {fixed_long} ({fixed_ratio}), the attention GRU's from "
        "{attention_short} to {attention_long} ({attention_ratio}) and the Transformer's from "
        "{transformer_short} to {transformer_long} ({transformer_ratio}): more than both, "
        "but too close to the nearer one to tell apart. At these small sizes the measurement "
        "does not separate parallel from sequential cleanly; the count of updates in a row "
        "(2T + 1 against none) is what stays.",
        "zh": "从 {short} 个字母到 {long} 个字母，固定上下文 GRU 的一个训练步从 {fixed_short} "
        "增加到 {fixed_long}（{fixed_ratio}），注意力 GRU 从 {attention_short} 增加到 "
        "{attention_long}（{attention_ratio}），Transformer 从 {transformer_short} 增加到 "
        "{transformer_long}（{transformer_ratio}）：比两者都多，但与较近的那个太接近，"
        "分不出高下。在这么小的规模下，测量结果没能把并行和顺序"
        "清楚地分开；不变的是必须依次完成的更新次数（2T + 1 次对零次）。",
    },
    "seq2seq_transformer.time.growth.faster": {
        "en": "From {short} to {long} letters a step of the fixed-context GRU grows from "
        "{fixed_short} to {fixed_long} ({fixed_ratio}), the attention GRU's from "
        "{attention_short} to {attention_long} ({attention_ratio}), and the Transformer's "
        "from {transformer_short} to {transformer_long}, {transformer_ratio}: on this "
        "machine it grows the most. Parallel means that no update waits for another, not "
        "less work: every position's products still have to be computed, and a machine of "
        "few cores cannot do many of them at once. With many cores, or a GPU, the "
        "Transformer's step can use them all; a GRU's 2T + 1 updates in a row cannot.",
        "zh": "从 {short} 个字母到 {long} 个字母，固定上下文 GRU 的一个训练步从 {fixed_short} "
        "增加到 {fixed_long}（{fixed_ratio}），注意力 GRU 从 {attention_short} 增加到 "
        "{attention_long}（{attention_ratio}），Transformer 从 {transformer_short} 增加到 "
        "{transformer_long}（{transformer_ratio}）：在这台机器上它增长得最多。并行的意思是"
        "没有哪次更新要等另一次，而不是计算量更少：每个位置的矩阵乘法仍然都得算，"
        "核心不多的机器一次也算不了多少。核心多了，或者有 GPU，Transformer 的训练步就能把它们"
        "全部用上；GRU 那 2T + 1 次必须依次完成的更新却做不到。",
    },
    "seq2seq_transformer.time.mean.slowest": {
        "en": "Averaged over training, a step (with the update) took {fixed} for the "
        "fixed-context GRU, {attention} for the attention GRU and {transformer} for the "
        "Transformer, {ratio} the attention GRU's: the slowest per step here. The levels "
        "are not a race: the Transformer is the larger model and computes on other kernels "
        "in another precision; how each time grows with the length is the comparison.",
        "zh": "按整个训练平均，一步（含参数更新）用时：固定上下文 GRU {fixed}，注意力 GRU "
        "{attention}，Transformer {transformer}，是注意力 GRU 的 {ratio}：在这里每步最慢。"
        "这些绝对值不是比赛：Transformer 模型更大，用的内核和精度也不同；"
        "该比较的是每个模型的时间如何随长度增长。",
    },
    "seq2seq_transformer.time.mean.between": {
        "en": "Averaged over training, a step (with the update) took {fixed} for the "
        "fixed-context GRU, {attention} for the attention GRU and {transformer} for the "
        "Transformer ({ratio} the attention GRU's), between the two. The levels are not a "
        "race: the models differ in size, kernels and precision; how each time grows with the "
        "length is the comparison.",
        "zh": "按整个训练平均，一步（含参数更新）用时：固定上下文 GRU {fixed}，注意力 GRU "
        "{attention}，Transformer {transformer}（注意力 GRU 的 {ratio}），介于两者之间。"
        "这些绝对值不是比赛：三个模型的大小、内核和精度都不同；"
        "该比较的是每个模型的时间如何随长度增长。",
    },
    "seq2seq_transformer.time.mean.fastest": {
        "en": "Averaged over training, a step (with the update) took {fixed} for the "
        "fixed-context GRU, {attention} for the attention GRU and {transformer} for the "
        "Transformer ({ratio} the attention GRU's): the fastest per step here, though the "
        "larger model. The models differ in kernels and precision too; how each time grows "
        "with the length is the comparison.",
        "zh": "按整个训练平均，一步（含参数更新）用时：固定上下文 GRU {fixed}，注意力 GRU "
        "{attention}，Transformer {transformer}（注意力 GRU 的 {ratio}）：虽然模型更大，"
        "在这里每步却最快。三个模型的内核和精度也不同；该比较的是每个模型的时间如何随长度增长。",
    },
    "seq2seq_transformer.time.col.model": {"en": "model", "zh": "模型"},
    "seq2seq_transformer.time.col.in_a_row": {
        "en": "updates in a row, T letters",
        "zh": "T 个字母时须依次完成的更新",
    },
    "seq2seq_transformer.time.col.step": {
        "en": "mean training step",
        "zh": "平均每个训练步",
    },
    "seq2seq_transformer.time.in_a_row.gru": {
        "en": "2T + 1 (one per state)",
        "zh": "2T + 1（每个状态一次）",
    },
    "seq2seq_transformer.time.in_a_row.transformer": {
        "en": "none within a layer ({layers} layers)",
        "zh": "层内没有（共 {layers} 层）",
    },
    "seq2seq_transformer.time.caveat": {
        "en": "Parallel is about training. Writing is sequential for the Transformer too: each "
        "symbol of an answer needs the one before it, so an answer of T + 1 symbols takes T + 1 "
        "passes of the model, one after another — on this page each pass reads the whole prefix "
        "again (a key/value cache, as the generating model's, would keep the past instead).",
        "zh": "“并行”说的是训练。对 Transformer 来说，生成也是顺序的：答案的每个符号都依赖前一个，"
        "所以 T + 1 个符号的答案要依次运行 T + 1 次模型——在这一页上，每次都把整个前缀重新读一遍"
        "（像生成模型那样用键/值缓存，就能把过去的结果存下来）。",
    },
}
