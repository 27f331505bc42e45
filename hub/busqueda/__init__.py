"""Search and lists: the normalized search columns, list pages that find, and text normalization."""
