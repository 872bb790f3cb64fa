"""threshold with the values simcards tune found against the game's other strategies (4 players).

threshold tuned by simcards tune for 4 players: bar=34, last_key=7, accept_gap=8, behind=3. Against the pool on 125 fresh deals: 0.3134 win rate (untuned 0.3044; difference +0.0089, 95% [+0.0035, +0.0144]).

Made by: simcards tune thirty-one threshold --players 4 --pool discard_reader,greedy,random,suit_chaser --trials 30 --games 6000 --check-games 12000 --seed 0
"""
ALIAS = "threshold:bar=34:last_key=7:accept_gap=8:behind=3"
