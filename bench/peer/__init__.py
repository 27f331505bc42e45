"""The peer: estado_solicitud served by the official MCP SDK (stateless JSON) under uvicorn."""
