"""Words and tables for people and programs: the report (text and JSON) and the sentences both
front ends say.
"""
