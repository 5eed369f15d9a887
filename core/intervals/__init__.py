"""How sure each number is: closed-form intervals (Wilson, DeLong)."""
