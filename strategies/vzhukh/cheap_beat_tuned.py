"""cheap_beat with the values simcards tune found against the game's other strategies (4 players).

cheap_beat tuned by simcards tune for 4 players: joker_below=8, transfer_cards=2. Against the pool on 125 fresh deals: 0.5430 win rate (untuned 0.2487; difference +0.2943, 95% [+0.2804, +0.3082]).

Made by: simcards tune vzhukh cheap_beat --players 4 --pool joker_dump,low_attack,random,transfer_first --trials 25 --games 6000 --check-games 12000 --seed 0
"""
ALIAS = "cheap_beat:joker_below=8:transfer_cards=2"
