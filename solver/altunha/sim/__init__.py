"""Automated playtesting of Altun Ha: a rules engine, players, parallel runs and a balance report."""
