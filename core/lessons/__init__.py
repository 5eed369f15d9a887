"""threshold-lab's lessons: read, checked, played and answered exactly."""
