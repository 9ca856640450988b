<?php

namespace App\Http\Requests;

use Illuminate\Foundation\Http\FormRequest;
use JsonException;
use Symfony\Component\HttpKernel\Exception\BadRequestHttpException;

// An item's body, validated by Laravel before the controller runs (a failure is a ValidationException, 422).
class ItemRequest extends FormRequest
{
    // Laravel decodes a JSON body leniently: one that is not JSON becomes an empty input, which the rules
    // would refuse as a missing name (422). The contract answers 400 to it, so it is told apart here, before
    // the rules run.
    protected function prepareForValidation(): void
    {
        try {
            json_decode($this->getContent(), flags: JSON_THROW_ON_ERROR);
        } catch (JsonException $e) {
            throw new BadRequestHttpException('The body is not JSON: ' . $e->getMessage(), $e);
        }
    }

    public function rules(): array
    {
        return [
            'name' => ['required', 'string'],
            'quantity' => [
                'required',
                'integer',
                'between:-2147483648,2147483647',
                // Laravel 8's integer rule passes the string "3" (filter_var); the contract wants the JSON number.
                function (string $attribute, mixed $value, callable $fail): void {
                    if (!is_int($value)) {
                        $fail("The $attribute must be a JSON integer.");
                    }
                },
            ],
        ];
    }
}
