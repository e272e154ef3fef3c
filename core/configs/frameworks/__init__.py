"""One module per framework: ``ID``, ``detect`` (by what only that framework writes), ``check`` (its own
arithmetic, ≤ 40 lines) and ``RULES`` (each rule defined once, beside its check).

A framework module imports ``core.configs.base``, ``core.configs.read``, the face of ``core.configs.shell`` and
``_shared`` — never another framework. ``core.configs.registry`` lists them in detection order.
"""
