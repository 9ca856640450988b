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


class Item(models.Model):
    """crud's table, created, seeded and reset by the harness like World. The id is its identity column, which
    Django's AutoField reads back with INSERT ... RETURNING."""

    id = models.AutoField(primary_key=True)
    # blank: the contract takes any string as a name, "" too.
    name = models.TextField(blank=True)
    quantity = models.IntegerField()

    class Meta:
        db_table = "items"
        managed = False

    def as_json(self) -> dict:
        return {"id": self.id, "name": self.name, "quantity": self.quantity}
