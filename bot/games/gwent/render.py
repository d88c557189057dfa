"""Text for humans (filled in below)."""
def describe_action(state, seat, action, locale):
    return str(action)[:80]
def render_view(view, locale, names):
    return str(view)[:1800]
def render_event(event, locale, names):
    return None
