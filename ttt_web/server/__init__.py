"""How gunicorn serves the app: the gevent worker."""
