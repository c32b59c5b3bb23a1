"""The words of the Inside-the-decoder page (``pages/inside_decoder.py``)."""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "inside_decoder.title": {
        "en": "Inside the decoder: what each layer would say",
        "zh": "解码器内部：每一层会说什么",
    },
    "inside_decoder.intro": {
        "en": "SmolLM2 predicts the next token from one vector: the residual stream after the "
        "last layer, passed through the final RMSNorm and the output layer. Each layer only adds "
        "its attention and MLP outputs to that stream (its norms sit on the branches, not on "
        "the stream), so after every layer there is a partial sum in the very space the output "
        "layer reads. The **logit lens** reads it there: the same final norm and output layer "
        "applied to the stream after l layers (l = 0 is the embeddings alone, l = 30 the "
        "model's own reading), as if the model stopped at layer l.",
        "zh": "SmolLM2 只用一个向量来预测下一个 token：最后一层之后的残差流，经过最终的 RMSNorm "
        "和输出层。每一层只是把自己的注意力输出和 MLP 输出加到这条流上（归一化放在各个分支上，"
        "不在流本身上），所以每一层之后都有一个部分和，而且就在输出层读取的那个空间里。"
        "**logit lens（对数几率透镜）** 就在每一层之后读取它：把同样的最终归一化和输出层用在"
        "第 l 层之后的流上（l = 0 只有词向量，l = 30 就是模型自己的读法），好像模型在第 l 层"
        "就停下了。",
    },
    "inside_decoder.caveat": {
        "en": "A reading, not the mechanism: the inner layers were never trained to be read "
        "through the final norm and output layer. In a model this small their readings are "
        "often spaces, commas and function words until late; a token's place by layer shows "
        "when the stream starts to point at it, not what each layer does.",
        "zh": "这只是一种读法，不是模型的机制：中间各层从来没有被训练成可以通过最终的归一化"
        "和输出层来读。在这么小的模型里，它们读出的往往是空格、逗号和虚词，直到很靠后的层；"
        "一个 token 逐层的名次说明这条流从什么时候开始指向它，而不是每一层在做什么。",
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
        "en": "The stream at a token predicts the token after it; the last token's predicts what "
        "the model would generate next (its top choice when decoding greedily).",
        "zh": "某个 token 处的流预测的是它后面的那个 token；最后一个 token 处的流预测的是模型"
        "接下来要生成的内容（贪心解码时排第一的那个）。",
    },
    "inside_decoder.choice.title": {
        "en": "Where the model's choice stands, layer by layer",
        "zh": "模型的选择在每一层排第几",
    },
    "inside_decoder.choice.body": {
        "en": "After {query} the model's top token at the last layer is “{choice}” "
        "({prob}). Below: its place among all {vocab} tokens when each layer's stream is read "
        "(1 is the top); the dashed line is the average place of a token drawn at random.",
        "zh": "在 {query} 之后，模型在最后一层排第一的 token 是 “{choice}”（{prob}）。"
        "下图：读取每一层的流时，它在全部 {vocab} 个 token 中的名次（1 表示第一）；"
        "虚线是随机抽取的 token 的平均名次。",
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
    "inside_decoder.claim.choice_last": {
        "en": "Read through the lens, {choice} is the top token only at the last layer (layer "
        "{layers}). At layer 0 it has place {place0} of {vocab}, at layer {middle} place "
        "{place_middle}; a token drawn at random has place {chance} on average.",
        "zh": "通过透镜读取，{choice} 只在最后一层（第 {layers} 层）排第一。它在第 0 层排第 "
        "{place0}（共 {vocab} 个），在第 {middle} 层排第 {place_middle}；随机抽取的 token "
        "平均排第 {chance}。",
    },
    "inside_decoder.claim.choice_back": {
        "en": "Read through the lens, {choice} is the top token at the last layer (layer "
        "{layers}) but not at layer {before_last}; it was on top at {earlier} earlier "
        "{earlier:layer|layers} too. At layer 0 it has place {place0} of {vocab}, at layer "
        "{middle} place {place_middle}; a token drawn at random has place {chance} on average.",
        "zh": "通过透镜读取，{choice} 在最后一层（第 {layers} 层）排第一，但在第 {before_last} "
        "层不是；它在前面的 {earlier} 层也排过第一。它在第 0 层排第 {place0}（共 {vocab} 个），"
        "在第 {middle} 层排第 {place_middle}；随机抽取的 token 平均排第 {chance}。",
    },
    "inside_decoder.claim.choice_early": {
        "en": "Read through the lens, {choice} is the top token from layer {first} on, {ahead} "
        "{ahead:layer|layers} before the last. At layer 0 it has place {place0} of {vocab}, at "
        "layer {middle} place {place_middle}; a token drawn at random has place {chance} on "
        "average.",
        "zh": "通过透镜读取，{choice} 从第 {first} 层起一直排第一，比最后一层早 {ahead} 层。"
        "它在第 0 层排第 {place0}（共 {vocab} 个），在第 {middle} 层排第 {place_middle}；"
        "随机抽取的 token 平均排第 {chance}。",
    },
    "inside_decoder.claim.own_token": {
        "en": "At layer 0, before any layer has added anything, the top token read at {query} is "
        "that token itself. The output layer is the embedding table itself (tied) and the "
        "stream holds only that token's embedding, which is usually why.",
        "zh": "在第 0 层，还没有任何一层往流里加东西，在 {query} 处读到的第一名就是这个 token "
        "本身。输出层就是词向量表本身（权重共享），而此时流里只有这个 token 的词向量，"
        "这通常就是原因。",
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
        "(through its slice of $W^O$) and every MLP wrote into it. A token's logit is that "
        "stream, scaled by the final RMSNorm, dotted with the token's row of the output layer. "
        "With the norm's scale fixed at its value here, the logit splits exactly into one term "
        "per part. A positive term raises the token's logit, a negative one lowers it. Reading "
        "a term as what the part does is the approximation: taking the part away would change "
        "the scale and every later layer too.",
        "zh": "输出层读取的流是一个和：词向量，加上每个头（经过它在 $W^O$ 中的那一段）和每个 MLP "
        "写进去的东西。一个 token 的 logit 就是这条流经最终的 RMSNorm 缩放后，与输出层中该 "
        "token 那一行的点积。把归一化的缩放系数固定为这里的取值，logit 就恰好拆成每个部分各一项"
        "之和。正的项抬高这个 token 的 logit，负的项压低它。把某一项当作这个部分的作用才是近似："
        "拿掉这个部分会改变缩放系数，也会改变后面的每一层。",
    },
    "inside_decoder.claim.sum": {
        "en": "Embedding {embedding}, heads {heads}, MLPs {mlps}: together {total}; the model's "
        "own logit is {logit} (the rest is float32 rounding).",
        "zh": "词向量 {embedding}，各头合计 {heads}，各 MLP 合计 {mlps}：加起来是 {total}；"
        "模型自己的 logit 是 {logit}（差别来自 float32 舍入）。",
    },
    "inside_decoder.attr.heads": {
        "en": "Each head's direct term",
        "zh": "各个头的直接贡献",
    },
    "inside_decoder.attr.mlps": {
        "en": "Each MLP's direct term",
        "zh": "各个 MLP 的直接贡献",
    },
    "inside_decoder.axis.head": {"en": "head", "zh": "头"},
    "inside_decoder.axis.block": {"en": "layer", "zh": "层"},
    "inside_decoder.axis.term": {"en": "direct term (logit)", "zh": "直接贡献（logit）"},
    "inside_decoder.claim.ablation.falls_most": {
        "en": "Switching off {heads} together (the heads with the largest positive terms; their "
        "outputs set to 0 before $W^O$) changes the logit of {choice} by {change}; {draws} sets "
        "of as many other heads of the same layers change it by {low} to {high}. "
        "It falls further than with any of the control sets: these heads hold the logit "
        "up more than as many other heads of their layers do.",
        "zh": "把 {heads}（直接贡献为正且最大的几个头）一起关掉（它们的输出在 $W^O$ 之前置为 0），"
        "{choice} 的 logit 变化 {change}；从相同的层中另取同样多的头，{draws} 组对照的变化在 "
        "{low} 到 {high} 之间。"
        "它比每一组对照降得都多：这些头撑住这个 logit 的作用，超过它们所在层里同样"
        "多的别的头。",
    },
    "inside_decoder.claim.ablation.rises_least": {
        "en": "Switching off {heads} together (the heads with the largest positive terms; their "
        "outputs set to 0 before $W^O$) changes the logit of {choice} by {change}; {draws} sets "
        "of as many other heads of the same layers change it by {low} to {high}. "
        "It rises, but less than with any of the control sets.",
        "zh": "把 {heads}（直接贡献为正且最大的几个头）一起关掉（它们的输出在 $W^O$ 之前置为 0），"
        "{choice} 的 logit 变化 {change}；从相同的层中另取同样多的头，{draws} 组对照的变化在 "
        "{low} 到 {high} 之间。"
        "它有所上升，但比每一组对照升得都少。",
    },
    "inside_decoder.claim.ablation.falls_least": {
        "en": "Switching off {heads} together (the heads with the largest positive terms; their "
        "outputs set to 0 before $W^O$) changes the logit of {choice} by {change}; {draws} sets "
        "of as many other heads of the same layers change it by {low} to {high}. "
        "It falls, but less than with any of the control sets: by this test these heads "
        "hold the logit up less than other heads of their layers.",
        "zh": "把 {heads}（直接贡献为正且最大的几个头）一起关掉（它们的输出在 $W^O$ 之前置为 0），"
        "{choice} 的 logit 变化 {change}；从相同的层中另取同样多的头，{draws} 组对照的变化在 "
        "{low} 到 {high} 之间。"
        "它有所下降，但比每一组对照降得都少：按这个检验，这些头撑住这个 logit 的作"
        "用比同层别的头还小。",
    },
    "inside_decoder.claim.ablation.rises_most": {
        "en": "Switching off {heads} together (the heads with the largest positive terms; their "
        "outputs set to 0 before $W^O$) changes the logit of {choice} by {change}; {draws} sets "
        "of as many other heads of the same layers change it by {low} to {high}. "
        "It rises, more than with any of the control sets: once everything after them "
        "can react, these heads do not hold the logit up. A direct term is not an "
        "effect.",
        "zh": "把 {heads}（直接贡献为正且最大的几个头）一起关掉（它们的输出在 $W^O$ 之前置为 0），"
        "{choice} 的 logit 变化 {change}；从相同的层中另取同样多的头，{draws} 组对照的变化在 "
        "{low} 到 {high} 之间。"
        "它反而上升，而且比每一组对照升得都多：让后面的各层都能作出反应时，这些头并没有撑"
        "住这个 logit。直接贡献并不等于作用。",
    },
    "inside_decoder.claim.ablation.among": {
        "en": "Switching off {heads} together (the heads with the largest positive terms; their "
        "outputs set to 0 before $W^O$) changes the logit of {choice} by {change}; {draws} sets "
        "of as many other heads of the same layers change it by {low} to {high}. "
        "That is among the controls: by this test these heads are not set apart from "
        "other heads of their layers.",
        "zh": "把 {heads}（直接贡献为正且最大的几个头）一起关掉（它们的输出在 $W^O$ 之前置为 0），"
        "{choice} 的 logit 变化 {change}；从相同的层中另取同样多的头，{draws} 组对照的变化在 "
        "{low} 到 {high} 之间。"
        "它落在对照的范围里：按这个检验，这些头和同层别的头分不出差别。",
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
        "reacts, which switching it off tests.",
        "zh": "透镜读的是流指向哪里，直接贡献说明在固定归一化时是谁把它写到那里；两者都不是"
        "某个部分在后面各层都作出反应之后的作用，而把它关掉正是在检验这一点。",
    },
}
