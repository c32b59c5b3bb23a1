"""The words of the Inside-the-decoder page (``pages/inside_decoder.py``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "inside_decoder.title": {
        "en": "Inside the decoder: what each layer would say",
        "zh": "解码器内部：每一层会说什么",
    },
    "inside_decoder.intro": {
        "en": "SmolLM2 predicts the next token from one vector: the residual stream at the last "
        "layer, passed through the final RMSNorm and the output layer. Every layer adds its "
        "attention and MLP outputs to that stream, so the stream exists after every layer, not "
        "only after the last. The **logit lens** reads it there: the same final norm and output "
        "layer applied to the stream after l layers (l = 0 is the embeddings alone, l = 30 the "
        "model's own reading), as if the model stopped at layer l.",
        "zh": "SmolLM2 只用一个向量来预测下一个 token：最后一层的残差流，经过最后的 RMSNorm "
        "和输出层。每一层都把自己的注意力输出和 MLP 输出加到这条流上，所以每一层之后都有这条流，"
        "不只是最后一层之后。**logit lens（对数几率透镜）** 就在那里读取它：把同样的最后归一化和"
        "输出层用在第 l 层之后的流上（l = 0 只有词向量，l = 30 就是模型自己的读法），"
        "好像模型在第 l 层就停下了。",
    },
    "inside_decoder.caveat": {
        "en": "A reading, not the mechanism: the inner layers were never trained to be read "
        "through the final norm and output layer. In a model this small their readings are "
        "often spaces, commas and function words until late; a token's place by layer shows "
        "when the stream starts to point at it, not what each layer does.",
        "zh": "这只是一种读法，不是模型的机制：中间各层从来没有被训练成可以通过最后的归一化"
        "和输出层来读。在这么小的模型里，它们读出的往往是空格、逗号和虚词，直到很靠后的层；"
        "一个 token 逐层的排名说明这条流从什么时候开始指向它，而不是每一层在做什么。",
    },
    "inside_decoder.too_long": {
        "en": "Your text has {n} tokens; this page reads the first {kept}.",
        "zh": "你的文本有 {n} 个 token；本页只读前 {kept} 个。",
    },
    "inside_decoder.computing": {
        "en": "Reading 31 residual streams…",
        "zh": "正在读取 31 条残差流……",
    },
    "inside_decoder.position": {
        "en": "Read the stream at token",
        "zh": "读取这个 token 处的流",
    },
    "inside_decoder.position_help": {
        "en": "The stream at a token predicts the token after it; the last token's is what the "
        "model would generate next.",
        "zh": "某个 token 处的流预测的是它后面的那个 token；最后一个 token 处的流就是模型接下来"
        "要生成的内容。",
    },
    "inside_decoder.choice.title": {
        "en": "Where the model's choice stands, layer by layer",
        "zh": "模型的选择在每一层排第几",
    },
    "inside_decoder.choice.body": {
        "en": "After {query} the model's top token at the last layer is “{choice}” "
        "({prob}). Below: its place among all {vocab} tokens when each layer's stream is read "
        "(1 is the top), beside where a token drawn at random stands on average.",
        "zh": "在 {query} 之后，模型在最后一层排第一的 token 是 “{choice}”（{prob}）。"
        "下图：读取每一层的流时，它在全部 {vocab} 个 token 中排第几（1 表示第一），"
        "旁边是随机抽一个 token 平均排在的位置。",
    },
    "inside_decoder.axis.layer": {
        "en": "layer (0 = the embeddings)",
        "zh": "层（0 = 词向量）",
    },
    "inside_decoder.axis.place": {
        "en": "place (1 = the top)",
        "zh": "排名（1 = 第一）",
    },
    "inside_decoder.series.choice": {
        "en": "the model's choice",
        "zh": "模型的选择",
    },
    "inside_decoder.series.chance": {
        "en": "a token at random (average)",
        "zh": "随机 token（平均）",
    },
    "inside_decoder.series.title": {"en": "token", "zh": "token"},
    "inside_decoder.claim.choice_last": {
        "en": "Read through the lens, {choice} is the top token only at the last layer, "
        "{layers}. At layer 0 it stands at place {place0} of {vocab}, at layer {middle} at "
        "place {place_middle}; a token drawn at random stands at about {chance} on average.",
        "zh": "通过透镜读取，{choice} 只在最后一层（第 {layers} 层）排第一。它在第 0 层排第 "
        "{place0}（共 {vocab} 个），在第 {middle} 层排第 {place_middle}；随机抽一个 token，"
        "平均排在第 {chance} 位左右。",
    },
    "inside_decoder.claim.choice_early": {
        "en": "Read through the lens, {choice} is the top token from layer {first} on, {ahead} "
        "{ahead:layer|layers} before the last. At layer 0 it stands at place {place0} of "
        "{vocab}, at layer {middle} at place {place_middle}; a token drawn at random stands at "
        "about {chance} on average.",
        "zh": "通过透镜读取，{choice} 从第 {first} 层起一直排第一，比最后一层早 {ahead} 层。"
        "它在第 0 层排第 {place0}（共 {vocab} 个），在第 {middle} 层排第 {place_middle}；"
        "随机抽一个 token，平均排在第 {chance} 位左右。",
    },
    "inside_decoder.claim.own_token": {
        "en": "At layer 0, before any layer has added anything, the top token read after {query} "
        "is {query}'s own token: the output layer is the embedding table itself (tied), and the "
        "stream still holds only that token's embedding.",
        "zh": "在第 0 层，还没有任何一层往流里加东西，在 {query} 之后读到的第一名就是 {query} "
        "自己这个 token：输出层就是词向量表本身（权重共享），而这条流里此时只有这个 token "
        "的词向量。",
    },
    "inside_decoder.table.title": {
        "en": "The top {k} of every layer",
        "zh": "每一层的前 {k} 名",
    },
    "inside_decoder.col.layer": {"en": "layer", "zh": "层"},
    "inside_decoder.col.rank": {"en": "#{rank}", "zh": "第 {rank} 名"},
    "inside_decoder.col.place": {
        "en": "place of {choice}",
        "zh": "{choice} 的排名",
    },
    "inside_decoder.col.prob": {
        "en": "probability of {choice}",
        "zh": "{choice} 的概率",
    },
    "inside_decoder.attr.title": {
        "en": "Who pushed “{choice}” up",
        "zh": "是谁把 “{choice}” 推上去的",
    },
    "inside_decoder.attr.body": {
        "en": "The stream the output layer reads is a sum: the embedding, plus what every head "
        "(through its slice of $W^O$) and every MLP wrote into it. The logit of a token is that "
        "stream, scaled by the final RMSNorm, dotted with the token's row of the output layer. "
        "**Hold the norm's scale fixed** (an approximation: taking a part away would change it, "
        "and every later layer too) and the logit splits exactly into one term per part. A "
        "positive term pushes the token up, a negative one pushes it down.",
        "zh": "输出层读取的流是一个和：词向量，加上每个头（经过它在 $W^O$ 中的那一段）和每个 MLP "
        "写进去的东西。一个 token 的 logit 就是这条流经最后的 RMSNorm 缩放后，与输出层中该 token "
        "那一行的点积。**把归一化的缩放系数固定不变**（这是近似：拿掉任何一部分都会改变它，"
        "也会改变后面的每一层），logit 就恰好分成每个部分各一项。正的项把这个 token 往上推，"
        "负的项往下压。",
    },
    "inside_decoder.claim.sum": {
        "en": "Embedding {embedding}, heads {heads}, MLPs {mlps}: together {total}; the model's "
        "own logit is {logit} (the rest is float32 rounding).",
        "zh": "词向量 {embedding}，各头合计 {heads}，各 MLP 合计 {mlps}：加起来是 {total}；"
        "模型自己的 logit 是 {logit}（差别来自 float32 舍入）。",
    },
    "inside_decoder.attr.heads": {
        "en": "Each head's term",
        "zh": "每个头的一项",
    },
    "inside_decoder.attr.mlps": {
        "en": "Each MLP's term",
        "zh": "每个 MLP 的一项",
    },
    "inside_decoder.axis.head": {"en": "head", "zh": "头"},
    "inside_decoder.axis.block": {"en": "layer", "zh": "层"},
    "inside_decoder.axis.term": {"en": "term (logit units)", "zh": "这一项（logit 单位）"},
    "inside_decoder.claim.ablation.below": {
        "en": "Switching off {heads} together (the heads with the largest terms) changes the "
        "logit of {choice} by {change}; {draws} sets of as many other heads of the same "
        "layers change it by {low} to {high}. It falls further than with any control: these "
        "heads hold the token up beyond what losing any heads does.",
        "zh": "把 {heads}（这几项最大的头）一起关掉，{choice} 的 logit 变化 {change}；"
        "从相同的层中另取同样多的头，{draws} 组对照的变化在 {low} 到 {high} 之间。"
        "它比任何一组对照降得都多：这些头撑着这个 token，超出了随便去掉几个头的影响。",
    },
    "inside_decoder.claim.ablation.above": {
        "en": "Switching off {heads} together (the heads with the largest terms) changes the "
        "logit of {choice} by {change}; {draws} sets of as many other heads of the same "
        "layers change it by {low} to {high}. It ends higher than with any control: once "
        "everything after them can react, these heads do not hold the token up. A direct "
        "term is not an effect.",
        "zh": "把 {heads}（这几项最大的头）一起关掉，{choice} 的 logit 变化 {change}；"
        "从相同的层中另取同样多的头，{draws} 组对照的变化在 {low} 到 {high} 之间。"
        "它比任何一组对照都高：让后面的各层都能作出反应时，这些头并没有撑住这个 token。"
        "直接的一项并不等于效果。",
    },
    "inside_decoder.claim.ablation.within": {
        "en": "Switching off {heads} together (the heads with the largest terms) changes the "
        "logit of {choice} by {change}; {draws} sets of as many other heads of the same "
        "layers change it by {low} to {high}. That is among the controls: by this test these "
        "heads are not set apart from other heads.",
        "zh": "把 {heads}（这几项最大的头）一起关掉，{choice} 的 logit 变化 {change}；"
        "从相同的层中另取同样多的头，{draws} 组对照的变化在 {low} 到 {high} 之间。"
        "它落在对照的范围里：按这个检验，这些头和别的头分不出差别。",
    },
    "inside_decoder.attr.computing": {
        "en": "Splitting the logit and switching heads off…",
        "zh": "正在拆分 logit 并关掉一些头……",
    },
    "inside_decoder.solved": {
        "en": "The prediction can be followed through the depth of the model on your sentence: "
        "the residual stream read at every layer with the model's own output layer, and the "
        "logit split over the heads and MLPs that wrote it.",
        "zh": "可以在你的句子上沿着模型的深度追踪预测：用模型自己的输出层读取每一层的残差流，"
        "再把 logit 拆到写出它的各个头和 MLP 上。",
    },
    "inside_decoder.hurts": {
        "en": "The lens reads where the stream points, and the direct terms say who wrote it "
        "there with the norm held fixed; neither is what a part does once everything after it "
        "reacts, which only switching it off shows.",
        "zh": "透镜读的是流指向哪里，直接的各项说明在固定归一化时是谁把它写到那里；"
        "两者都不是某个部分在后面各层都作出反应之后的作用，那只有把它关掉才能看到。",
    },
}
