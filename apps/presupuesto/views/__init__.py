"""The budget screens behind the assistant's links: documents (CDP, RP, PAA line) and reports."""
