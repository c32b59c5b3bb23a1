"""The tasks the learner is trained on, and what is measured while it learns them."""
