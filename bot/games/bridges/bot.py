def choose(state, seat, rng):
    from .actions import legal_actions
    return rng.choice(legal_actions(state, seat))
