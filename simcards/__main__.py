from simcards.cli import program

program()
