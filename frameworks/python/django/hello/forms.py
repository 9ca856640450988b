"""crud's validation as Django forms: ItemForm for the JSON body (a ModelForm, which also saves the row) and
PageForm for the query."""

from django import forms
from django.core.exceptions import ValidationError
from shootout_common import items

from hello.models import Item


class JSONStringField(forms.CharField):
    """A name as JSON gave it. A form field takes text and would turn 5 into "5" and strip spaces; the contract
    wants a JSON string kept as sent ("" included) and anything else refused."""

    def to_python(self, value):
        if value is not None and not isinstance(value, str):
            raise ValidationError("Enter a string.", code="invalid")
        return value

    def validate(self, value):
        if value is None:
            raise ValidationError(self.error_messages["required"], code="required")


class JSONIntegerField(forms.IntegerField):
    """A quantity as JSON gave it: an integer only, where a form field would take "3" and 3.0 (and True) too."""

    def to_python(self, value):
        if value is None:
            return None
        if type(value) is not int:
            raise ValidationError(self.error_messages["invalid"], code="invalid")
        return value


class ItemForm(forms.ModelForm):
    """Bound to the decoded JSON object; other members are ignored, as a form ignores fields it does not declare.
    The model's IntegerField brings the column's 32-bit range as validators (run by the form's model clean)."""

    class Meta:
        model = Item
        fields = ["name", "quantity"]
        field_classes = {"name": JSONStringField, "quantity": JSONIntegerField}


class PageForm(forms.Form):
    page = forms.IntegerField(min_value=1, max_value=items.INT_MAX, required=False)
    size = forms.IntegerField(min_value=1, max_value=items.MAX_SIZE, required=False)
