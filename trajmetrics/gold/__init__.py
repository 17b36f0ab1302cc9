"""gold"""
