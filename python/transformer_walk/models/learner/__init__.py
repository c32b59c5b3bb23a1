"""The toy decoder that learns: a small decoder-only Transformer trained on a task by the backend's
training kernels (``linear_backward``, ``attention_backward``, ``cross_entropy``, ``adamw_step``…).

``params`` names and initialises its parameters, ``decoder`` runs it forward and back, ``trainer``
loops over a task's batches. docs/api.md ("Training") writes the forward out in full.
"""

from transformer_walk.models.learner.params import LearnerConfig, init_params, param_shapes
from transformer_walk.models.learner.trainer import Task, TrainResult, train

__all__ = ["LearnerConfig", "Task", "TrainResult", "init_params", "param_shapes", "train"]
