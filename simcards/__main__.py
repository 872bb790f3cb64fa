from simcards.cli import app

app(prog_name="simcards")
