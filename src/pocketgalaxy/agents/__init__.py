"""Computer players. They see only views and the events their seat may see."""
