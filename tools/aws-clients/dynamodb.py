"""Runs one DynamoDB operation with boto3, for main_dynamodbauth_test.go:

    python3 dynamodb.py ENDPOINT OPERATION JSON_INPUT

e.g. `python3 dynamodb.py http://127.0.0.1:8000 ListTables '{}'`. The credentials are
AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, given to the client explicitly (so no other
provider, like the instance metadata service, is asked), the region AWS_REGION. Prints the
output as JSON and exits 0, or prints {"error": code, "message": ...} and exits 1.
"""

import json
import os
import sys

import boto3
from botocore.config import Config
from botocore.exceptions import ClientError
from botocore import xform_name


def main():
    endpoint, operation, data = sys.argv[1], sys.argv[2], sys.argv[3]
    client = boto3.session.Session().client(
        "dynamodb",
        endpoint_url=endpoint,
        region_name=os.environ["AWS_REGION"],
        aws_access_key_id=os.environ["AWS_ACCESS_KEY_ID"],
        aws_secret_access_key=os.environ["AWS_SECRET_ACCESS_KEY"],
        config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )
    try:
        out = getattr(client, xform_name(operation))(**json.loads(data))
    except ClientError as err:
        print(json.dumps({"error": err.response["Error"]["Code"], "message": err.response["Error"]["Message"]}))
        sys.exit(1)
    out.pop("ResponseMetadata", None)
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
