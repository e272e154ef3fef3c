"""Entry points and transports: the command lines, the console, HTTP, Socket Mode, Lambda, health, the guard."""
