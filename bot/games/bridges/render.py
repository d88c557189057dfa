def describe_action(state, seat, action, locale, names=()):
    return str(action)
def render_view(view, locale, names):
    return "board"
def render_event(event, locale, names):
    return event["kind"]
