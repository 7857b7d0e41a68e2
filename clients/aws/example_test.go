package aws_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	_ "github.com/mcperr/mcperr/clients/aws" // aws-sdk-go-v2's errors, for envelope.ErrorOf and the adapters
	"github.com/mcperr/mcperr/envelope"
)

// A handler returns the SDK's error wrapped with %w; the import is all the
// setup. DynamoDB answers a failed condition with a 400, and its code says
// it is a conflict: the item changed.
func Example() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(w, `{"__type":"com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException","message":"The conditional request failed"}`)
	}))
	defer api.Close()
	db := dynamodb.New(dynamodb.Options{
		Region:       "us-east-1",
		BaseEndpoint: aws.String(api.URL),
		Credentials:  credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", ""),
	})

	_, err := db.PutItem(context.Background(), &dynamodb.PutItemInput{
		TableName:           aws.String("Music"),
		Item:                map[string]types.AttributeValue{"Artist": &types.AttributeValueMemberS{Value: "No One You Know"}},
		ConditionExpression: aws.String("attribute_not_exists(Artist)"),
	})
	e, ok := envelope.ErrorOf(fmt.Errorf("failed to put item: %w", err))
	if !ok {
		log.Fatal("no upstream failure")
	}
	b, _ := e.MarshalJSON()
	fmt.Println(string(b))
	// Output:
	// {"kind":"conflict","code":"ConditionalCheckFailedException","message":"failed to put item: The conditional request failed"}
}
