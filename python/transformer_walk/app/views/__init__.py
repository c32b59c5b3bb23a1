"""app/views."""
