"""hold_actions with the values simcards tune found against the game's other strategies (4 players).

hold_actions tuned by simcards tune for 4 players: first_set21=4, first_skip=5, first_pass=1, first_reverse=1, first_draw2=6, first_draw1=2, first_life=7, first_killer=9, first_redeal=7, first_set10=2, first_set0=0. Against the pool on 100 fresh deals: 0.2448 win rate (untuned 0.2161; difference +0.0287, 95% [+0.0157, +0.0417]).

Made by: simcards tune five-alive hold_actions --players 4 --pool expert,high_first,keep_zero,pressure_draw,random --trials 30 --games 6000 --check-games 12000 --seed 0
"""
ALIAS = "hold_actions:first_set21=4:first_skip=5:first_pass=1:first_reverse=1:first_draw2=6:first_draw1=2:first_life=7:first_killer=9:first_redeal=7:first_set10=2"
