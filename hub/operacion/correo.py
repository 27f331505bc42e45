"""The mail backend of development and tests of the whole process: nothing leaves, one log line
per message says that it would have, and nothing personal is in that line.

Django's console backend printed each message whole: a contact message's name, address, subject
and text (an ID number, a phone) in plain lines of the log, and a password-reset link (a secret).
This line keeps what a developer needs to see that a mail was produced: how many recipients, how
long its text is, how many attachments. The subject is left out too: a contact message's subject
is the sender's own words. To read the messages in development, the file backend writes them to
files (README.md, «Correo en desarrollo»), never to the log.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from django.core.mail import EmailMessage
from django.core.mail.backends.base import BaseEmailBackend

logger = logging.getLogger(__name__)


class LogSinDatos(BaseEmailBackend):
    """Sends nothing; logs one line per message without addresses, subject or text."""

    def send_messages(self, email_messages: Sequence[EmailMessage]) -> int:
        for mensaje in email_messages:
            destinatarios = len(mensaje.recipients())
            caracteres = len(mensaje.body or "")
            adjuntos = len(mensaje.attachments)
            logger.info(
                "correo no enviado (no hay servidor de correo configurado): %d destinatario(s), "
                "%d caracteres de texto, %d adjunto(s)",
                destinatarios,
                caracteres,
                adjuntos,
                extra={"destinatarios": destinatarios, "caracteres": caracteres},
            )
        return len(email_messages)
