"""Findings of the memory estimate per GPU, whatever the framework: an estimate, so a warning at most."""

#: One row per rule code; the placeholders are exactly the fields of the rule's context (``…_bytes`` as GiB).
FINDINGS: dict[str, str] = {
    "memory/micro-batch-does-not-fit": (
        "Laut Schätzung passt der Micro-Batch je Gerät b = {micro} nicht: Er braucht {total_bytes} je Gerät, eine "
        "{gpu} hat {capacity_bytes}. Mit b = {largest} und a = {accumulation} Akkumulationsschritten je "
        "Optimierer-Schritt bleibt die Batch-Größe gleich; Akkumulation kostet keinen Aktivierungsspeicher."
    ),
    "memory/does-not-fit": (
        "Laut Schätzung passt dieser Lauf auf keine {gpu}, auch nicht mit b = 1: Er braucht {total_bytes} je Gerät, "
        "die {gpu} hat {capacity_bytes}; davon sind {states_bytes} Gewichte, Gradienten und Optimiererzustände. "
        "Weniger braucht es mit mehr Tensor- oder Pipeline-Parallelität, einer höheren ZeRO-Stufe oder Neuberechnung "
        "der Aktivierungen."
    ),
}
FORMULAS: dict[str, str] = {}
