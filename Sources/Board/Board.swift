// Board: board-configs/*.yaml -> a validated board description -> an assembled board. Built out in issue 5.
