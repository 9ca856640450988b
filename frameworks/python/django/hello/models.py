from django.db import models


class World(models.Model):
    """The harness owns and seeds this table, so Django never migrates it."""

    id = models.IntegerField(primary_key=True)
    randomnumber = models.IntegerField()

    class Meta:
        db_table = "world"
        managed = False


class Fortune(models.Model):
    """Seeded by the harness like World."""

    id = models.IntegerField(primary_key=True)
    message = models.TextField()

    class Meta:
        db_table = "fortune"
        managed = False
