"""Deep Monte-Carlo self-play (docs/rl.md, "Deep Monte-Carlo"): Q(observation, action) over the fixed
action table regressed on each deal's outcome, as DouZero and DanZero learn.

- :mod:`~cardroom.rl.dmc.features`: what the network knows of each action-table entry.
- :mod:`~cardroom.rl.dmc.policy`: the trained network in NumPy (saved as ``.npz``), what plays.
- :mod:`~cardroom.rl.dmc.bot`: the ``dmc`` bot, wherever bots play.
- :mod:`~cardroom.rl.dmc.network`: the network in PyTorch (the ``train`` extra).
- :mod:`~cardroom.rl.dmc.actor`: self-play on a batched environment, epsilon-greedy, into samples.
- :mod:`~cardroom.rl.dmc.remote`: actors as Ray actors.
- :mod:`~cardroom.rl.dmc.learner`: the training loop, checkpoints, resume and logs.
- :mod:`~cardroom.rl.dmc.evaluation`: the duplicate arena against random and the heuristic, the curve.

Only :mod:`.features`, :mod:`.policy` and :mod:`.bot` are needed to play; the rest needs PyTorch.
"""
