"""The admin site's polish: the site, its actions, forms, grammar, permission names and the NUL
guard."""
