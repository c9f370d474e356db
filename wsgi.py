from ttt_web.app import create_app

app = create_app()
