"""The referee pages: settle a dispute at the table, no sheet and no login needed.

One module per game (and one for the rule book), each with its own ``urlpatterns``
included by ``games.urls``. The pages are thin: every judgement comes from
``games.rules``, and card input uses the shared card picker.
"""
