"""Operations: start-up, connections, mail, deploy checks, retention, demo plumbing and start-up
registries."""
