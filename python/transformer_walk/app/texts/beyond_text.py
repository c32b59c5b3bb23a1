"""Words of the Beyond text page (prefix ``vit.``)."""

MESSAGES: dict[str, dict[str, str]] = {
    "beyond_text.title": {"en": "Beyond text: images as patches", "zh": "超越文本：把图像切成图块"},
    "beyond_text.intro": {
        "en": "Nothing in self-attention cares that its tokens were words. It needs a set of "
        "vectors, each with a position, and it learns which of them should exchange information "
        "and how much. The Vision Transformer (ViT) feeds it an image: cut the picture into "
        "square patches, flatten each patch into one vector, project it linearly to "
        "$d_{\\text{model}}$, add positions — and each patch is now a token. Audio frames, video "
        "cubes and points of a 3D scene go the same way.",
        "zh": "自注意力并不在乎它的 token 原本是不是词。它只需要一组向量，每个向量带一个位置，"
        "然后学习哪些向量之间应该交换信息、交换多少。视觉 Transformer（ViT）把图像交给它："
        "把图片切成正方形的图块，把每个图块展平成一个向量，线性投影到 $d_{\\text{model}}$ 维，"
        "再加上位置——每个图块就成了一个 token。音频帧、视频的时空块、三维场景里的点，"
        "也都可以这样处理。",
    },
    "beyond_text.source": {"en": "Image", "zh": "图像"},
    "beyond_text.source.scene": {"en": "Generated scene", "zh": "生成的场景"},
    "beyond_text.source.upload": {"en": "Upload your own", "zh": "上传自己的图片"},
    "beyond_text.scene_caption": {
        "en": "A {size} × {size} scene drawn with NumPy (the same pixels every time).",
        "zh": "一幅用 NumPy 画出的 {size} × {size} 场景（每次像素都完全相同）。",
    },
    "beyond_text.upload.button": {"en": "Upload", "zh": "上传图片"},
    "beyond_text.upload.label": {
        "en": "PNG or JPEG, at most 2 MB and 1024 × 1024 pixels",
        "zh": "PNG 或 JPEG，不超过 2 MB、1024 × 1024 像素",
    },
    "beyond_text.upload.caption": {
        "en": "Your image, cropped to a square and scaled to {size} × {size}.",
        "zh": "你的图片，已裁成正方形并缩放到 {size} × {size}。",
    },
    "beyond_text.upload.no_pil": {
        "en": "Uploading is switched off here: decoding PNG or JPEG safely needs the Pillow "
        "library, which this environment does not have. The generated scene works the same way.",
        "zh": "这里关闭了上传功能：安全地解码 PNG 或 JPEG 需要 Pillow 库，而当前环境没有安装。"
        "生成的场景可以完全同样地演示。",
    },
    "beyond_text.upload.too_big": {
        "en": "That file is larger than 2 MB — please pick a smaller one. Showing the generated "
        "scene meanwhile.",
        "zh": "这个文件超过了 2 MB——请换一个小一点的文件。在此之前先显示生成的场景。",
    },
    "beyond_text.upload.too_large_image": {
        "en": "That image is larger than 1024 × 1024 pixels — please pick a smaller one. "
        "Showing the generated scene meanwhile.",
        "zh": "这张图片超过了 1024 × 1024 像素——请换一张小一点的。在此之前先显示生成的场景。",
    },
    "beyond_text.upload.not_image": {
        "en": "That file could not be read as an image. Showing the generated scene meanwhile.",
        "zh": "无法把这个文件读取为图像。在此之前先显示生成的场景。",
    },
    "beyond_text.patch": {"en": "Patch size p (pixels)", "zh": "图块大小 p（像素）"},
    "beyond_text.patch_help": {
        "en": "Smaller patches mean more tokens: n grows as 1/p², and attention's n × n matrix "
        "as 1/p⁴. ViT-Base uses 16 × 16 patches of a 224 × 224 image: 196 tokens.",
        "zh": "图块越小，token 越多：n 按 1/p² 增长，注意力的 n × n 矩阵按 1/p⁴ 增长。"
        "ViT-Base 把 224 × 224 的图像切成 16 × 16 的图块：共 196 个 token。",
    },
    "beyond_text.metric.grid": {"en": "grid (rows × cols)", "zh": "网格（行 × 列）"},
    "beyond_text.metric.n": {"en": "n (patch tokens)", "zh": "n（图块 token 数）"},
    "beyond_text.metric.width": {"en": "numbers per patch", "zh": "每个图块的数值个数"},
    "beyond_text.sequence.title": {"en": "The patch sequence", "zh": "图块序列"},
    "beyond_text.sequence.body": {
        "en": "Read row by row, left to right, the patches become a sequence — the image's "
        "“sentence”. Flattening a patch of {p} × {p} pixels with 3 colour channels gives one "
        "vector of {width} numbers.",
        "zh": "按行从左到右读，这些图块就排成了一个序列——这幅图像的“句子”。把一个 {p} × {p} "
        "像素、3 个颜色通道的图块展平，就得到一个含 {width} 个数的向量。",
    },
    "beyond_text.embed.title": {
        "en": "Patch embeddings: a linear projection plus positions",
        "zh": "图块向量：线性投影加位置",
    },
    "beyond_text.embed.body": {
        "en": "One matrix $E$ maps every flattened patch to $d_{{\\text{{model}}}} = {d}$ "
        "numbers; it plays the role of the word-embedding table. Here the same sinusoidal "
        "positions as for words are added (ViT itself learns one position vector per patch, "
        "and puts a learned [CLS] vector in front whose output classifies the image), so the "
        "model can tell the top-left patch from the bottom-right one — without them, shuffling "
        "the patches would only shuffle the outputs the same way: each patch's result would "
        "not depend on where it sits.",
        "zh": "一个矩阵 $E$ 把每个展平的图块映射为 $d_{{\\text{{model}}}} = {d}$ 个数，"
        "它的作用相当于词向量表。这里再加上与词相同的正弦位置编码（ViT 本身为每个图块学习一个"
        "位置向量，并在最前面放一个学到的 [CLS] 向量，用它的输出给整张图分类），模型才能区分"
        "左上角和右下角的图块——没有位置，打乱图块只会让输出按同样的方式打乱："
        "每个图块的结果与它所在的位置无关。",
    },
    "beyond_text.axis.patch": {"en": "patch", "zh": "图块"},
    "beyond_text.axis.dim": {"en": "dimension", "zh": "维度"},
    "beyond_text.axis.query": {"en": "query patch", "zh": "查询图块"},
    "beyond_text.axis.key": {"en": "key patch", "zh": "键图块"},
    "beyond_text.axis.row": {"en": "patch row", "zh": "图块行"},
    "beyond_text.axis.col": {"en": "patch column", "zh": "图块列"},
    "beyond_text.value": {"en": "value", "zh": "数值"},
    "beyond_text.attention.title": {
        "en": "Self-attention over the patches",
        "zh": "图块之间的自注意力",
    },
    "beyond_text.attention.body": {
        "en": "One head, exactly the formula used for words, on the {n} patch tokens: a "
        "matrix of {n} × {n} whose row $i$ says how patch $i$ spreads its attention over all "
        "patches, every row summing to 1.",
        "zh": "一个注意力头，公式与处理词时完全相同，作用在 {n} 个图块 token 上：得到一个 "
        "{n} × {n} 的矩阵，第 $i$ 行表示图块 $i$ 如何把注意力分配给所有图块，每一行的和都是 1。",
    },
    "beyond_text.query": {"en": "Query patch", "zh": "查询图块"},
    "beyond_text.query_help": {
        "en": "Patches are numbered row by row from the top left, starting at 1.",
        "zh": "图块从左上角开始按行编号，从 1 开始。",
    },
    "beyond_text.overlay.caption": {
        "en": "Patch {query} (yellow frame) attends most to patch {top} (weight {weight}); red "
        "shows each patch's weight, the largest at full strength.",
        "zh": "图块 {query}（黄框）最关注图块 {top}（权重 {weight}）；红色表示每个图块得到的权重，"
        "最大的显示为最深的红色。",
    },
    "beyond_text.grid.title": {
        "en": "The same row, back on the patch grid",
        "zh": "同一行权重，放回图块网格",
    },
    "beyond_text.row_sum": {
        "en": "Row {query}: Σⱼ αᵢⱼ = {total}",
        "zh": "第 {query} 行：Σⱼ αᵢⱼ = {total}",
    },
    "beyond_text.untrained": {
        "en": "These weights come from random, untrained projections: they react to colour and "
        "position, not to “house” or “sun”. A trained ViT learns projections whose attention "
        "follows objects and their parts — and even then, an attention map is the model's "
        "routing, not a segmentation.",
        "zh": "这些权重来自随机、未经训练的投影：它们只对颜色和位置有反应，并不认识“房子”或"
        "“太阳”。训练好的 ViT 会学到让注意力跟随物体及其部件的投影——即便如此，"
        "注意力图也只是模型内部的信息路由，而不是图像分割结果。",
    },
    "beyond_text.clip.title": {
        "en": "CLIP: text and images in one space",
        "zh": "CLIP：文本与图像同处一个空间",
    },
    "beyond_text.clip.body": {
        "en": "CLIP trains two encoders side by side — a Transformer over a caption's tokens and "
        "one over an image's patches — so that each ends in one vector of the same size. On "
        "millions of image–caption pairs, training pulls the vectors of a matching pair "
        "together and pushes mismatched pairs apart. Matching text to pictures becomes "
        "geometry: the caption whose vector lies closest (by cosine similarity) is the one that "
        "fits. The front ends differ by modality; the attention inside them is the same.",
        "zh": "CLIP 并排训练两个编码器——一个 Transformer 处理说明文字的 token，另一个处理图像的"
        "图块——让二者最后各输出一个同样长度的向量。在数以百万计的“图像–文字”配对上训练时，"
        "匹配的配对被拉近，不匹配的配对被推远。于是图文匹配变成了几何问题：向量离得最近"
        "（余弦相似度最高）的那句文字，就是最贴切的描述。前端因模态而不同，"
        "内部用的却是同一种注意力。",
    },
    "beyond_text.solved": {
        "en": "Any input that can be cut into tokens — image patches here — goes through the "
        "same attention.",
        "zh": "任何能切成 token 的输入——这里是图像的图块——都能交给同一种注意力处理。",
    },
    "beyond_text.hurts": {
        "en": "Halving the patch size gives four times the tokens and sixteen times the "
        "attention matrix: high-resolution images and video get expensive fast.",
        "zh": "图块边长减半，token 数变成四倍，注意力矩阵变成十六倍："
        "高分辨率图像和视频的代价增长得很快。",
    },
    # --- words inside formulas (through views.latex.tex_words) ---
    "beyond_text.tex.patch": {"en": "patch", "zh": "图块"},
}
