"""sniper with the values simcards tune found against the game's other strategies (4 players).

sniper tuned by simcards tune for 4 players: knockout=31, weakest=1, spend_from=6. Against the pool on 125 fresh deals: 0.2909 win rate (untuned 0.1986; difference +0.0923, 95% [+0.0824, +0.1023]).

Made by: simcards tune bombs-away sniper --players 4 --pool duelist,hoarder,keeper,random --trials 12 --games 6000 --check-games 12000 --seed 0
"""
ALIAS = "sniper:knockout=31:spend_from=6"
